#!/bin/bash
# varnish-bench.sh [BUILD_DIR] [SECONDS]: cms-api's cached answers through
# Varnish (etc/cms-api.vcl, xkey) against the same Varnish serving a
# static object of the same size. One cms-api worker behind lighttpd on
# the example site, [edge] tags_header = xkey; both URLs warmed, so every
# measured request is a Varnish hit: the figure is what the tags cost the
# edge (its xkey index, a bigger object header), not cms-api. wrk with
# 2 threads and 32 connections, SECONDS each (default 10), best of 3.
# Prints a Markdown table for bench/RESULTS.md.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
seconds=${2:-10}
top=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")
work=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-vbench-XXXXXX")
lpid=
vpid=
trap '[ -n "$vpid" ] && kill "$vpid"; [ -n "$lpid" ] && kill "$lpid"; wait; rm -rf "$work"' EXIT
for cmd in varnishd lighttpd wrk curl; do
	command -v "$cmd" >/dev/null || { echo "varnish-bench: $cmd is missing (scripts/install-deps bench)" >&2; exit 1; }
done
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 12000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}

url=/api/collections/blog/entries?limit=5
mkdir -p "$work/docroot/static" "$work/cache"
cat >"$work/cms-api.ini" <<INI
[api]
enabled = true
base_url = http://cms.example
[content]
root = $top/example/site
[cache]
dir = $work/cache
[log]
target = $work/worker.log
[rate_limit]
per_minute = 0
[resources]
collections = true
[edge]
tags_header = xkey
INI
lport=$(free_port)
cat >"$work/lighttpd.conf" <<CONF
server.modules = ( "mod_fastcgi" )
server.document-root = "$work/docroot"
server.bind = "127.0.0.1"
server.port = $lport
mimetype.assign = ( ".json" => "application/json" )
fastcgi.server = ( "/api" => (( "socket" => "$work/sock", "bin-path" => "$build/cms-api",
	"bin-environment" => ( "CMS_API_CONFIG" => "$work/cms-api.ini" ), "max-procs" => 1,
	"check-local" => "disable" )))
CONF
lighttpd -D -f "$work/lighttpd.conf" >"$work/lighttpd.log" 2>&1 &
lpid=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$lport/api/ping" && break; sleep 0.1; done
# The static object: the same bytes as the API's answer, as a file.
curl -s "http://127.0.0.1:$lport$url" >"$work/docroot/static/answer.json"
bytes=$(wc -c <"$work/docroot/static/answer.json")

vport=$(free_port)
sed "s/\\.port = \"8080\";/.port = \"$lport\";/" "$top/etc/cms-api.vcl" >"$work/cms-api.vcl"
varnishd -F -j none -n "$work/varnish" -a "127.0.0.1:$vport" -f "$work/cms-api.vcl" \
	-s malloc,64m >"$work/varnishd.log" 2>&1 &
vpid=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$vport/static/answer.json" && break; sleep 0.1; done
for _ in 1 2 3; do
	curl -s -o /dev/null "http://127.0.0.1:$vport$url"
	curl -s -o /dev/null "http://127.0.0.1:$vport/static/answer.json"
done
tags=$(curl -s -D - -o /dev/null "http://127.0.0.1:$lport$url" | tr -d '\r' | sed -n 's/^xkey: //p' | wc -w)

# best PATH [WRK ARGS...]: the best req/s of 3 runs of wrk against Varnish.
best() {
	local b=0 r path=$1
	shift
	for _ in 1 2 3; do
		r=$(wrk -t2 -c32 -d"${seconds}s" "$@" "http://127.0.0.1:$vport$path" |
			awk '/^Requests\/sec/ {printf "%d", $2}')
		[ "$r" -gt "$b" ] && b=$r
	done
	echo "$b"
}
api=$(best "$url")
static=$(best /static/answer.json)
# cms-api hands Varnish its gzip copy (Vary: Accept-Encoding), which
# Varnish keeps compressed: a client that takes gzip gets it as stored,
# one that does not makes Varnish inflate it on every hit.
api_gz=$(best "$url" -H 'Accept-Encoding: gzip')
static_gz=$(best /static/answer.json -H 'Accept-Encoding: gzip')
hits=$(varnishstat -n "$work/varnish" -1 -f MAIN.cache_hit | awk '{print $2}')
misses=$(varnishstat -n "$work/varnish" -1 -f MAIN.cache_miss | awk '{print $2}')
ratio() { awk -v a="$1" -v s="$2" 'BEGIN {printf "%.2f", a / s}'; }
echo "| through Varnish, a hit ($bytes bytes) | client without gzip | client with gzip |"
echo "|---|---:|---:|"
echo "| cms-api answer, $tags xkey tags | $api | $api_gz |"
echo "| static object of the same bytes | $static | $static_gz |"
echo "| cms-api / static | $(ratio "$api" "$static") | $(ratio "$api_gz" "$static_gz") |"
echo
echo "Varnish hits $hits, misses $misses over the run."
