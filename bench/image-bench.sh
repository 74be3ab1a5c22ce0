#!/bin/bash
# bench/image-bench.sh [DURATION]: what images cost (issue 23).
#  1. resizes per second on one core: a 2000 x 1500 JPEG made 400 px wide,
#     in-process (bench/image-bench: image_make, as /api/img calls it);
#  2. the same through lighttpd and one worker with the response cache off
#     (every request a resize), the worker pinned to one core;
#  3. a repeat through the static fast path (the file cms-api publishes,
#     found by nginx's try_files from the request as the fast path's
#     snippets find answers) against the same bytes as a plain static
#     file, nginx pinned to one core, wrk on the other.
# Needs a build in build/ (scripts/test makes it), nginx, lighttpd and wrk
# (scripts/install-deps bench). Prints the figures for bench/RESULTS.md.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
duration=${1:-5}
bin=$top/build/cms-api
make -s -C "$top/build" bench/image-bench >/dev/null
w=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-image-bench-XXXXXX")
trap 'kill $(cat "$w"/*.pid 2>/dev/null) 2>/dev/null; rm -rf "$w"' EXIT
mkdir -p "$w/site" "$w/cache"
chmod 755 "$w" # nginx's workers (nobody) read public/ and static/
cp -r "$top/example/site/." "$w/site/"
cat >"$w/cms-api.ini" <<INI
[api]
enabled = true
[content]
root = $w/site
[cache]
dir = $w/cache
[log]
target = $w/worker.log
[rate_limit]
per_minute = 0
[resources]
assets = true
[disks.assets]
root = $w/site/public/assets
url = /assets
[images]
presets = w400:w=400
sign_key = bench
INI
# The source: a 2000 x 1500 picture as a JPEG (q 85), made by cms-api itself.
/usr/bin/python3 "$top/tests/http/mkpng.py" 2000 1500 "$w/site/public/assets/big.png"
sig=$(printf 'bench:api/img/assets/big.png?fm=jpg&q=85' | md5sum | cut -c1-32)
"$bin" -c "$w/cms-api.ini" get "/api/img/assets/big.png?fm=jpg&q=85&s=$sig" |
	sed '1,/^$/d' | head -c -1 >"$w/site/public/assets/big.jpg"
echo "source: $(/usr/bin/python3 "$top/tests/http/mkpng.py" --size "$w/site/public/assets/big.jpg"), $(stat -c %s "$w/site/public/assets/big.jpg") bytes"

echo "== 1. in-process, one core"
taskset -c 0 "$top/build/bench/image-bench" "$w/cms-api.ini" "$w/site/public/assets/big.jpg" 400 31

echo "== 2. through lighttpd, one worker, the response cache off"
sed -i 's/^dir = .*/&\nenabled = false/' "$w/cms-api.ini"
port=$((20000 + RANDOM % 10000))
cat >"$w/lighttpd.conf" <<CONF
server.modules += ( "mod_fastcgi" )
server.document-root = "$w"
server.bind = "127.0.0.1"
server.port = $port
server.pid-file = "$w/lighttpd.pid"
server.errorlog = "$w/lighttpd.log"
fastcgi.server = ( "/api" => (( "socket" => "$w/cms-api.sock", "bin-path" => "$bin",
	"bin-environment" => ( "CMS_API_CONFIG" => "$w/cms-api.ini" ), "max-procs" => 1,
	"check-local" => "disable" )))
CONF
taskset -c 0 lighttpd -f "$w/lighttpd.conf"
sleep 1
url="http://127.0.0.1:$port/api/img/assets/big.jpg?p=w400"
curl -sf -o /dev/null "$url"
taskset -c 1 wrk -t1 -c2 -d"${duration}s" "$url" | grep -E "Requests/sec|Latency"
kill "$(cat "$w/lighttpd.pid")"; rm -f "$w/lighttpd.pid"

echo "== 3. a repeat through the fast path against a static file (nginx, one core)"
mkdir -p "$w/public/g1/api/img/assets" "$w/static" "$w/nginx"
ln -s g1 "$w/public/current"
"$bin" -c "$w/cms-api.ini" get '/api/img/assets/big.jpg?p=w400' | sed '1,/^$/d' | head -c -1 \
	>"$w/public/g1/api/img/assets/big.jpg@p=w400.jpg"
cp "$w/public/g1/api/img/assets/big.jpg@p=w400.jpg" "$w/static/thumb.jpg"
echo "answer: $(/usr/bin/python3 "$top/tests/http/mkpng.py" --size "$w/static/thumb.jpg"), $(stat -c %s "$w/static/thumb.jpg") bytes"
cat >"$w/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $w/nginx.pid;
error_log $w/nginx/error.log;
events { worker_connections 512; }
http {
	access_log off;
	client_body_temp_path $w/nginx/body;
	fastcgi_temp_path $w/nginx/fastcgi;
	proxy_temp_path $w/nginx/proxy;
	uwsgi_temp_path $w/nginx/uwsgi;
	scgi_temp_path $w/nginx/scgi;
	types { image/jpeg jpg; }
	server {
		listen 127.0.0.1:$port;
		location ^~ /api/img/ { root $w/public; try_files /current\$uri@\$args.jpg =404; }
		location /static/ { root $w; }
	}
}
CONF
taskset -c 0 nginx -c "$w/nginx/nginx.conf" -e "$w/nginx/error.log"
sleep 0.5
for u in "/api/img/assets/big.jpg?p=w400" /static/thumb.jpg; do
	curl -sf -o /dev/null "http://127.0.0.1:$port$u"
	printf '%s: ' "$u"
	taskset -c 1 wrk -t1 -c16 -d"${duration}s" "http://127.0.0.1:$port$u" | awk '/Requests\/sec/ {print $2 " a second"}'
done
kill "$(cat "$w/nginx.pid")"; rm -f "$w/nginx.pid"
