#!/bin/bash
# list-bench.sh [BUILD_DIR] [SIZES...]: the median time of one page of the
# term list and of the asset list, on generated sites whose taxonomy and
# asset container hold SIZES items each (default 10000 100000), and on the
# largest of ../shared/corpora when it is there (amplitude-docs: its
# help_center_conversions container of 1,266 assets, rebuilt from its
# ASSETS-MANIFEST.txt, and its largest taxonomy). Each list is measured on
# its first, middle and last page (limit 25), in-process (bench/query-
# bench.c: app_handle without HTTP, median of 101) and through lighttpd
# and one FastCGI worker (curl, median of 51). Prints a Markdown table.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
shift || true
sizes=${*:-10000 100000}
top=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")
corpora="$top/../shared/corpora"
work=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-lbench-XXXXXX")
lpid=
trap '[ -n "$lpid" ] && kill "$lpid"; rm -rf "$work"' EXIT

make -s -C "$build" bench/query-bench >/dev/null
qbench="$build/bench/query-bench"

# gen_site N DIR: a taxonomy "topics" of N terms (a title and a colour
# each) and an asset container "media" of N files of a few bytes in 100
# folders, every tenth with a .meta file holding alt text and dimensions.
gen_site() {
	local n=$1 dir=$2
	rm -rf "$dir"
	mkdir -p "$dir/content/taxonomies/topics" "$dir/content/assets" "$dir/public/media"
	printf 'title: Topics\n' >"$dir/content/taxonomies/topics.yaml"
	printf 'title: Media\ndisk: media\n' >"$dir/content/assets/media.yaml"
	awk -v n="$n" -v dir="$dir" 'BEGIN {
		for (i = 0; i < n; i++) {
			f = sprintf("%s/content/taxonomies/topics/topic-%06d.yaml", dir, i)
			printf("title: \"Topic %d\"\ncolour: %s\n", i, i % 2 ? "red" : "blue") > f
			close(f)
		}
		for (d = 0; d < 100; d++)
			system(sprintf("mkdir -p %s/public/media/f%02d/.meta", dir, d))
		for (i = 0; i < n; i++) {
			folder = sprintf("%s/public/media/f%02d", dir, i % 100)
			f = sprintf("%s/photo-%06d.jpg", folder, i)
			printf("jpg %d\n", i) > f
			close(f)
			if (i % 10 == 0) {
				m = sprintf("%s/.meta/photo-%06d.jpg.yaml", folder, i)
				printf("data:\n  alt: \"Photo %d\"\nwidth: 640\nheight: 480\nmime_type: image/jpeg\n", i) > m
				close(m)
			}
		}
	}'
}

# ini NAME ROOT DISK-SECTIONS: a config with taxonomies and assets on.
ini() {
	printf '[api]\nenabled = true\n[content]\nroot = %s\n[cache]\nenabled = false\ndir = %s/cache-%s\n[log]\ntarget = %s/log\n[resources]\ntaxonomies = true\nassets = true\n%s' \
		"$2" "$work" "$1" "$work" "$3" >"$work/$1.ini"
	echo "$work/$1.ini"
}

start_server() {
	local conf=$1
	port=$((20000 + RANDOM % 20000))
	mkdir -p "$work/docroot"
	cat >"$work/lighttpd.conf" <<CONF
server.modules = ( "mod_fastcgi" )
server.document-root = "$work/docroot"
server.bind = "127.0.0.1"
server.port = $port
fastcgi.server = ( "/api" => (( "socket" => "$work/sock", "bin-path" => "$build/cms-api",
	"bin-environment" => ( "CMS_API_CONFIG" => "$conf" ), "max-procs" => 1, "check-local" => "disable" )))
CONF
	lighttpd -D -f "$work/lighttpd.conf" >>"$work/lighttpd.log" 2>&1 & lpid=$!
	for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/api/ping" && break; sleep 0.1; done
}

stop_server() {
	kill "$lpid"
	wait "$lpid" 2>/dev/null || true
	lpid=
	rm -f "$work/sock"*
}

total_of() { # CONF PATH: the list's meta.total
	"$build/cms-api" -c "$1" get "$2?limit=1" | tail -n 1 | sed 's/.*"total":\([0-9]*\).*/\1/'
}

# measure LABEL CONF PATH: a row per page (first, middle, last).
measure() {
	local label=$1 conf=$2 path=$3 total last
	total=$(total_of "$conf" "$path")
	last=$(((total + 24) / 25))
	"$build/cms-api" -c "$conf" warm >/dev/null
	start_server "$conf"
	for page in $(printf '%s\n' 1 $(((last + 1) / 2)) "$last" | uniq); do
		local uri="$path?limit=25&page=$page"
		local inproc http
		inproc=$("$qbench" "$conf" "$uri" 101 | cut -d' ' -f1)
		http=$(for _ in $(seq 1 51); do curl -s -g -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port$uri"; done |
			sort -n | awk '{v[NR]=$1} END {printf "%.3f", v[26] * 1000}')
		echo "| $label | $total | $page of $last | $inproc ms | $http ms |"
	done
	stop_server
}

echo "| list | items | page | in-process | lighttpd |"
echo "|---|---:|---|---:|---:|"
for n in $sizes; do
	gen_site "$n" "$work/site-$n"
	conf=$(ini "gen-$n" "$work/site-$n" "$(printf '[disks.media]\nroot = %s/public/media\nurl = /media\n' "$work/site-$n")")
	measure "generated terms" "$conf" /api/taxonomies/topics/terms
	measure "generated assets" "$conf" /api/assets/media
done

if [ -d "$corpora/amplitude-docs" ]; then
	c="$corpora/amplitude-docs"
	disk="$work/help_center"
	# The container's binaries as sparse files of their listed sizes, its
	# .meta files linked in.
	awk -F'\t' -v d="$disk" '$1 ~ /^public\/docs\/output\/img\// {
		p = d "/" substr($1, length("public/docs/output/img/") + 1)
		system(sprintf("mkdir -p \"$(dirname \"%s\")\" && truncate -s %d \"%s\"", p, $2, p))
	}' "$c/ASSETS-MANIFEST.txt"
	(cd "$c/public/docs/output/img" && find . -path '*/.meta/*' -type f) | while read -r m; do
		mkdir -p "$disk/$(dirname "$m")"
		ln -s "$c/public/docs/output/img/$m" "$disk/$m"
	done
	conf=$(ini amplitude "$c" "$(printf '[disks.help_center]\nroot = %s\nurl = /docs/output/img\n' "$disk")")
	largest=$(for t in "$c"/content/taxonomies/*/; do
		echo "$(find "$t" -name '*.yaml' | wc -l) $(basename "$t")"
	done | sort -n | tail -n 1 | cut -d' ' -f2)
	measure "amplitude-docs terms ($largest)" "$conf" "/api/taxonomies/$largest/terms"
	measure "amplitude-docs assets (help_center_conversions)" "$conf" /api/assets/help_center_conversions
fi
