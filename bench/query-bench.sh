#!/bin/bash
# query-bench.sh [BUILD_DIR]: median times of entry queries on generated
# sites of 10,000 and 100,000 entries, in-process (bench/query-bench.c)
# and through lighttpd + FastCGI (curl, median of 51 requests). Prints a
# Markdown table.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
top=$(cd "$here/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-qbench-XXXXXX")
lpid=
trap '[ -n "$lpid" ] && kill "$lpid"; rm -rf "$work"' EXIT

gcc -O2 -std=gnu11 -I"$build" -I"$top/src" "$here/query-bench.c" "$build/src/libcore.a" \
	$(pkg-config --libs fcgi json-c inih yaml-0.1 libcmark-gfm libpcre2-8 zlib sqlite3 hiredis) \
	-lcmark-gfm-extensions -o "$work/query-bench"

list='/api/collections/articles/entries?filter[title:contains]=x&sort=-date&limit=25&page=2'
one='/api/collections/articles/entries/00000010-0000-4000-8000-000000000016'
slug='/api/collections/articles/entries/alpha-article-4812'

echo "| entries | list, in-process | list, lighttpd | by id, in-process | by slug, in-process |"
echo "|---:|---:|---:|---:|---:|"
for n in 10000 100000; do
	"$here/gen-site" "$n" "$work/site"
	printf '[api]\nenabled = true\n[content]\nroot = %s\n[cache]\nenabled = false\ndir = %s/cache-%s\n[log]\ntarget = %s/log\n[resources]\ncollections = true\n[resources.collections.articles]\nallowed_filters = title\n' \
		"$work/site" "$work" "$n" "$work" >"$work/$n.ini"
	in_list=$("$work/query-bench" "$work/$n.ini" "$list" 51 | cut -d' ' -f1)
	in_id=$("$work/query-bench" "$work/$n.ini" "$one" 1001 | cut -d' ' -f1)
	in_slug=$("$work/query-bench" "$work/$n.ini" "$slug" 201 | cut -d' ' -f1)
	"$build/cms-api" -c "$work/$n.ini" warm >/dev/null
	port=$((20000 + RANDOM % 20000))
	mkdir -p "$work/docroot"
	cat >"$work/lighttpd.conf" <<CONF
server.modules = ( "mod_fastcgi" )
server.document-root = "$work/docroot"
server.bind = "127.0.0.1"
server.port = $port
fastcgi.server = ( "/api" => (( "socket" => "$work/sock", "bin-path" => "$build/cms-api",
	"bin-environment" => ( "CMS_API_CONFIG" => "$work/$n.ini" ), "max-procs" => 1, "check-local" => "disable" )))
CONF
	lighttpd -D -f "$work/lighttpd.conf" & lpid=$!
	for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/api/ping" && break; sleep 0.1; done
	http_list=$(for _ in $(seq 1 51); do curl -s -g -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port$list"; done |
		sort -n | awk '{v[NR]=$1} END {printf "%.3f", v[26] * 1000}')
	kill "$lpid"; wait "$lpid" 2>/dev/null || true; lpid=
	echo "| $n | $in_list ms | $http_list ms | $in_id ms | $in_slug ms |"
done
