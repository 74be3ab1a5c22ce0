#!/bin/bash
# hostile-bench.sh [BUILD_DIR [RUNS]]: what hostile queries
# cost, in-process (bench/query-bench.c: app_handle, no HTTP), the median
# of RUNS (default 5) runs: the worst regexes over 2,000 and 10,000
# entries whose titles are made to defeat them, an ordinary regex over the
# same entries, and parsing 40,000 query parameters (bench/params-bench.c).
# The timers are built by BUILD_DIR's make from the sources it was
# configured from, so an older build is measured with its own code.
# Prints a Markdown table.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
runs=${2:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-hbench-XXXXXX")
trap 'rm -rf "$work"' EXIT

make -s -C "$build" bench/query-bench bench/params-bench >/dev/null

list=/api/collections/articles/entries
nested="$list?filter[title:regex]=(a%7B1,30%7D)%7B1,30%7D\$"
plus="$list?filter[title:regex]=(a%2B)%2B\$"
plain="$list?filter[title:regex]=^a%2B!%201[0-9]*\$"

echo "| entries | \`(a{1,30}){1,30}\$\` | \`(a+)+\$\` | \`^a+! 1[0-9]*\$\` |"
echo "|---:|---:|---:|---:|"
for n in 2000 10000; do
	"$here/gen-site" "$n" "$work/site"
	# Titles a run of a's that ends in no match: the worst case for both.
	find "$work/site/content/collections/articles" -name '*.md' -print0 |
		xargs -0 sed -i "s/^title: '[A-Za-z]* article number \([0-9]*\)'\$/title: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa! \1'/"
	printf '[api]\nenabled = true\n[content]\nroot = %s\n[cache]\nenabled = false\ndir = %s/cache\n[log]\ntarget = %s/log\n[resources]\ncollections = true\n[resources.collections.articles]\nallowed_filters = title\n' \
		"$work/site" "$work" "$work" >"$work/$n.ini"
	row="| $n"
	for uri in "$nested" "$plus" "$plain"; do
		# "3.205 ms (status 400, 99 bytes)" -> "3.205 ms (400)"
		row="$row | $("$build/bench/query-bench" "$work/$n.ini" "$uri" "$runs" |
			sed -E 's/^([0-9.]+ ms) \(status ([0-9]+),.*/\1 (\2)/')"
	done
	echo "$row |"
done
echo
echo "| query parameters | parsing (request_from_uri) |"
echo "|---:|---:|"
for n in 4000 40000; do
	echo "| $n | $("$build/bench/params-bench" "$n" "$runs" | cut -d' ' -f1-2) |"
done
