#!/bin/bash
# ratelimit-bench.sh [BUILD_DIR]: what the rate limit costs a request.
#  - A cached GET answered in-process (bench/ratelimit-bench.c: app_handle
#    in the shared mode, as a worker runs it, the answer read from the file
#    cache), 50,000 times (Redis: 5,000), with the limit off, on with the file table (one
#    client, and 1,000 clients in turn), and on with Redis (a redis-server
#    started here, when installed).
#  - The limiter alone (rate_limiter_hit and its two headers), 200,000
#    times (Redis: 2,000), for the same variants: the limit's part, without the noise of
#    reading the cached answer from disk.
# The variants take turns, seven rounds; each figure is the median of its
# rounds' mean time per request.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
top=$(cd "$here/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-rlbench-XXXXXX")
redis_pid=
trap '[ -n "$redis_pid" ] && kill "$redis_pid"; rm -rf "$work"' EXIT

make -s -C "$build" bench/ratelimit-bench >/dev/null

uri='/api/collections/blog/entries/hello-world?fields=title'
write_ini() { # NAME [rate_limit] LINES...
	local name=$1
	shift
	{
		printf '[api]\nenabled = true\n[content]\nroot = %s\n' "$top/tests/fixtures/site"
		printf '[cache]\ndir = %s\n[log]\ntarget = %s/log\n' "$work/cache-$name" "$work"
		printf '[resources]\ncollections = true\n[rate_limit]\n'
		printf '%s\n' "$@"
	} >"$work/$name.ini"
}
write_ini off 'per_minute = 0'
write_ini file 'per_minute = 1000000000'
variants="off:1 file:1 file:1000"
if command -v redis-server >/dev/null; then
	port=$((20000 + RANDOM % 12000))
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" >/dev/null &
	redis_pid=$!
	for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
	write_ini redis 'per_minute = 1000000000' 'driver = redis' "redis_port = $port"
	variants="$variants redis:1"
fi

for round in 1 2 3 4 5 6 7; do
	for v in $variants; do
		name=${v%%:*} clients=${v#*:}
		# A Redis round trip is a hundred times the rest: fewer runs, so
		# that the whole stays well under a minute.
		scale=1
		[ "$name" = redis ] && scale=10
		"$build/bench/ratelimit-bench" "$work/$name.ini" "$uri" $((50000 / scale)) "$clients" |
			awk -v v="$v" '{print "get", v, $1}' >>"$work/times"
		"$build/bench/ratelimit-bench" "$work/$name.ini" "$uri" $((200000 / scale / scale)) "$clients" limiter |
			awk -v v="$v" '{print "limiter", v, $1}' >>"$work/times"
	done
done
echo "| limit | cached GET | its cost over off | the limiter alone |"
echo "|---|---:|---:|---:|"
sort -k1,2 -k3,3n "$work/times" | awk -v variants="$variants" '
	{ t[$1, $2, ++n[$1, $2]] = $3 }
	END {
		split(variants, order, " ")
		for (i = 1; order[i] != ""; i++)
			for (w = 1; w <= 2; w++) {
				what = w == 1 ? "get" : "limiter"
				v = order[i]
				m[what, v] = t[what, v, int((n[what, v] + 1) / 2)]
			}
		names["off:1"] = "off (per_minute = 0)"
		names["file:1"] = "file table, 1 client"
		names["file:1000"] = "file table, 1,000 clients in turn"
		names["redis:1"] = "Redis on 127.0.0.1, 1 client"
		for (i = 1; order[i] != ""; i++) {
			v = order[i]
			printf "| %s | %.2f µs | %s | %.2f µs |\n", names[v], m["get", v],
				v == "off:1" ? "" : sprintf("%+.2f µs", m["get", v] - m["get", "off:1"]),
				m["limiter", v]
		}
	}'
