#!/bin/bash
# tree-bench.sh [BUILD_DIR] [PAGES...]: the median in-process time
# (bench/query-bench.c, app_handle without HTTP) of one structured
# collection's whole tree, GET /api/collections/pages/tree?fields=title, on
# generated sites whose tree has the given numbers of pages (default 1000
# 10000), ten children to a page, so four or five levels deep. Prints a
# Markdown table. The tree's cost should grow with the pages, not with
# their square.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
shift || true
sizes=${*:-1000 10000}
# The build's own sources (headers and query-bench.c), so that an older
# build can be measured beside this one.
top=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")
work=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-tbench-XXXXXX")
trap 'rm -rf "$work"' EXIT

gcc -O2 -std=gnu11 -I"$build" -I"$top/src" "$top/bench/query-bench.c" "$build/src/libcore.a" \
	$(pkg-config --libs fcgi json-c inih yaml-0.1 libcmark-gfm libpcre2-8 zlib sqlite3 hiredis) \
	-lcmark-gfm-extensions -o "$work/query-bench"

# gen_tree N DIR: a site with one structured collection of N pages, page i
# the child of page (i - 1) / 10, written as a nested tree file.
gen_tree() {
	local n=$1 dir=$2
	rm -rf "$dir"
	mkdir -p "$dir/content/collections/pages" "$dir/content/trees/collections"
	printf 'title: Pages\nroute: "{parent_uri}/{slug}"\nstructure:\n  root: false\n' \
		>"$dir/content/collections/pages.yaml"
	awk -v n="$n" -v dir="$dir" '
	function item(i, indent,   c, first) {
		printf("%s-\n%s  entry: p%d\n", indent, indent, i) > tree
		first = i * 10 + 1
		if (first >= n)
			return
		printf("%s  children:\n", indent) > tree
		for (c = first; c < first + 10 && c < n; c++)
			item(c, indent "    ")
	}
	BEGIN {
		for (i = 0; i < n; i++) {
			f = sprintf("%s/content/collections/pages/p%d.md", dir, i)
			printf("---\nid: p%d\ntitle: Page %d\n---\nPage %d.\n", i, i, i) > f
			close(f)
		}
		tree = dir "/content/trees/collections/pages.yaml"
		print "tree:" > tree
		item(0, "  ")
		close(tree)
	}'
}

echo "| pages | whole tree, in-process | per page |"
echo "|---:|---:|---:|"
for n in $sizes; do
	gen_tree "$n" "$work/site"
	printf '[api]\nenabled = true\n[content]\nroot = %s\n[cache]\nenabled = false\ndir = %s/cache-%s\n[log]\ntarget = %s/log\n[resources]\ncollections = true\n' \
		"$work/site" "$work" "$n" "$work" >"$work/$n.ini"
	runs=$(( n >= 10000 ? 11 : 51 ))
	out=$("$work/query-bench" "$work/$n.ini" '/api/collections/pages/tree?fields=title' "$runs")
	ms=${out%% ms*}
	case "$out" in *"status 200"*) ;; *) echo "unexpected answer: $out" >&2; exit 1 ;; esac
	per=$(awk -v ms="$ms" -v n="$n" 'BEGIN { printf "%.2f", ms * 1000 / n }')
	echo "| $n | $ms ms | $per µs |"
done
