# bench/lib.sh: what bench/run and bench/per-core share: starting and
# stopping the web servers with cms-api behind them (from the snippets in
# etc/, through tests/http/servers.sh), json-server, wrk, and the URLs of
# each scenario. Sourced; defines functions only. The caller sets here,
# top, work, procs, duration and connections, and may set WRK (the command
# that runs wrk, e.g. "taskset -c 1 wrk" to keep it off the servers' core)
# and RUN (the directory of the next server's own files: its configuration,
# sockets, pid files and logs; $work when unset), so that several servers
# can run at once, each from a RUN of its own.

say() { printf '%s\n' "$*" >&2; }

# --- processes -----------------------------------------------------------

# The pids of a process and of all its descendants.
tree_pids() {
	local pid=$1 child
	echo "$pid"
	for child in $(pgrep -P "$pid" 2>/dev/null); do
		tree_pids "$child"
	done
}

stop_tree() {
	local pid=$1 pids
	[ -n "$pid" ] || return 0
	pids=$(tree_pids "$pid")
	kill $pids 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	for _ in $(seq 1 50); do
		kill -0 $pids 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 $pids 2>/dev/null || true
}

cleanup() {
	stop_front
	stop_tree "$json_pid"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A port nothing listens on (a connection is refused), below Linux's
# ephemeral range (32768 and up). Not an HTTP probe: redis-server or a
# FastCGI socket would not answer one and pass for free.
free_port() {
	local port
	while :; do
		port=$((20000 + RANDOM % 12000))
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
	done
}

wait_for() {
	for _ in $(seq 1 600); do
		curl -s -o /dev/null -f --max-time 5 "$1" && return 0
		sleep 0.1
	done
	say "bench/run: $1 did not answer"
	exit 1
}

# Proportional set size, in MiB, of the given processes together: pages
# they share (the mapped index, libraries) are counted once.
memory_mib() {
	local total=0 pid kib
	for pid in "$@"; do
		kib=$(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)
		total=$((total + ${kib:-0}))
	done
	awk -v k="$total" 'BEGIN {printf "%.1f", k / 1024}'
}

# --- the servers -----------------------------------------------------------

# write_ini FILE SITE CACHE_DIR CACHE_ENABLED [CACHE_LINES]: CACHE_LINES
# go into [cache] (driver = redis, public_dir = ..., one per line).
write_ini() {
	cat >"$1" <<INI
[api]
enabled = true
max_limit = 1000
; Absolute URLs from here, not from each request's Host: the fast path
; ([cache] public_dir) needs it, and every server gives the same bytes.
base_url = http://cms.example
[content]
root = $2
[cache]
enabled = $4
dir = $3
${5:-}
[log]
target = $work/cms-api.log
${LOG_LEVEL:+level = $LOG_LEVEL}
[rate_limit]
; wrk is one client asking thousands of times a second: the server is measured, not 429s.
per_minute = 0
[resources]
collections = true
[resources.collections.articles]
allowed_filters = title
INI
}

start_lighttpd() { # INI DOCROOT PORT
	local run=${RUN:-$work}
	# The fast path's snippet (when FASTPATH_DIR is set) comes first: its
	# mod_magnet must be loaded before mod_fastcgi.
	cat >"$run/lighttpd.conf" <<CONF
$(lighttpd_fastpath_conf "$run" /api)
server.modules += ( "mod_fastcgi" )
server.document-root = "$2"
server.bind = "127.0.0.1"
server.port = $3
server.errorlog = "$run/lighttpd-error.log"
mimetype.assign = ( ".json" => "application/json" )
fastcgi.server = ( "/api" => ((
	"socket" => "$run/cms-api.sock",
	"bin-path" => "$top/build/cms-api",
	"bin-environment" => ( "CMS_API_CONFIG" => "$1" ),
	"max-procs" => $procs,
	"check-local" => "disable",
)))
CONF
	lighttpd -D -f "$run/lighttpd.conf" &
	front_pid=$!
}

# nginx as Debian runs it, with etc/nginx-cms-api.conf: worker_processes
# one per CPU (a worker gives up an idle kept connection when another
# waits, so the pool needs no more workers than nginx keeps connections),
# or NGINX_PROCESSES.
nginx_processes() {
	echo "${NGINX_PROCESSES:-$(nproc)}"
}

start_nginx() { # INI DOCROOT PORT
	local run=${RUN:-$work} dir=${RUN:-$work}/nginx user=
	mkdir -p "$dir"
	[ "$(id -u)" = 0 ] && user=nobody
	front_workers="$run/spawn-fcgi.pid"
	spawn_workers "$run/cms-api.sock" "$procs" "$front_workers" "$user" "" "$top/build/cms-api" \
		CMS_API_CONFIG="$1" >/dev/null
	nginx_conf "$dir" "$3" "$2" "$run/cms-api.sock" /api "$(nginx_processes)" "$user" >"$dir/nginx.conf"
	start_nginx_in "$dir"
	front_pid=$!
}

# Apache as Debian runs it: as root, its children (and so the workers) as
# an unprivileged user, who then needs the site, the cache and the log.
start_apache() { # INI DOCROOT PORT
	local dir=${RUN:-$work}/apache user=
	mkdir -p "$dir"
	if [ "$(id -u)" = 0 ]; then
		user=nobody
		chown -R "$user" "$dir" "$work"/cache-* "$work/cms-api.log" 2>/dev/null || true
	fi
	apache_conf "$dir" "$3" "$2" "$top/build/cms-api" "$1" /api "$procs" "$user" >"$dir/httpd.conf"
	start_apache_in "$dir" "$user"
	front_pid=$!
}

# start_front SERVER INI DOCROOT PORT: the web server with cms-api under
# /api, answering.
start_front() {
	"start_$1" "$2" "$3" "$4"
	wait_for "http://127.0.0.1:$4/api/ping"
}

stop_front() {
	stop_tree "$front_pid"
	front_pid=
	[ -n "$front_workers" ] && stop_spawned_workers "$front_workers"
	front_workers=
}

# The processes serving: the web server, its workers and their watchers.
front_pids() {
	local w
	tree_pids "$front_pid"
	for w in $(spawned_workers "$front_workers"); do
		tree_pids "$w"
	done
}

start_json_server() { # DB PORT
	node "$here/json-server/node_modules/json-server/lib/cli/bin.js" \
		--host 127.0.0.1 --port "$2" --quiet "$1" >"$work/json-server.log" 2>&1 &
	json_pid=$!
	wait_for "http://127.0.0.1:$2/ping"
}

# --- measuring -------------------------------------------------------------

# Runs wrk with CONNECTIONS on URL; prints "req/s p50_ms p99_ms".
wrk_run() { # CONNECTIONS URL
	local out
	out=$(${WRK:-wrk} -t1 -c"$1" -d"${duration}s" --timeout 30s --latency "$2")
	if grep -q 'Non-2xx' <<<"$out"; then
		say "bench/run: $2 gave errors:"; say "$out"; exit 1
	fi
	awk '
	function ms(v) {
		if (v ~ /us$/) return v / 1000
		if (v ~ /ms$/) return v + 0
		if (v ~ /s$/) return v * 1000
		return v
	}
	/Requests\/sec:/ {rps = $2}
	$1 == "50%" {p50 = ms($2)}
	$1 == "99%" {p99 = ms($2)}
	END {printf "%.0f %.3f %.3f\n", rps, p50, p99}' <<<"$out"
}

# Measures URL alone (one connection: the latency a client sees) and under
# load (the rate); appends "N SCENARIO SERVER req/s p50 p99 p99-loaded MiB"
# to the results, the memory of PIDS taken after the load.
measure() { # N SCENARIO SERVER URL PIDS...
	local n=$1 scenario=$2 server=$3 url=$4 alone loaded rps p50 p99 loaded_rps loaded_p50 loaded_p99
	shift 4
	# Assigned apart from `local`, so that a failed wrk_run stops the run.
	alone=$(wrk_run 1 "$url")
	loaded=$(wrk_run "$connections" "$url")
	read -r rps p50 p99 <<<"$alone"
	read -r loaded_rps loaded_p50 loaded_p99 <<<"$loaded"
	echo "$n $scenario $server $loaded_rps $p50 $p99 $loaded_p99 $(memory_mib "$@")" >>"$results"
}

# A fresh lighttpd's first second is not typical: the workers map the
# index and the watcher scans the site. Let that pass before measuring.
settle() { # URL
	${WRK:-wrk} -t1 -c"$connections" -d2s "$1" >/dev/null
}

cms_url() { # SCENARIO N
	local i=$(($2 / 2)) words=(alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima)
	case $1 in
	ping) echo "/api/ping" ;;
	entry) echo "/api/collections/articles/entries/${words[$((i % 12))]}-article-$i" ;;
	list) echo "/api/collections/articles/entries?sort=-date&limit=25&page=2" ;;
	contains) echo "/api/collections/articles/entries?filter%5Btitle%3Acontains%5D=x&sort=-date&limit=25&page=2" ;;
	tree) echo "/api/collections/pages/tree" ;;
	esac
}

json_url() { # SCENARIO N
	local i=$(($2 / 2)) words=(alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima)
	case $1 in
	ping) echo "/ping" ;;
	entry) echo "/entries?slug=${words[$((i % 12))]}-article-$i" ;;
	list) echo "/entries?_sort=date&_order=desc&_page=2&_limit=25" ;;
	contains) echo "/entries?title_like=x&_sort=date&_order=desc&_page=2&_limit=25" ;;
	tree) echo "/tree" ;;
	esac
}

# Every entry of the site, through cms-api itself, into json-server's db.
dump_db() { # PORT N DB
	local pages=$((($2 + 999) / 1000)) p
	for p in $(seq 1 "$pages"); do
		curl -s -f -o "$work/dump-$p.json" \
			"http://127.0.0.1:$1/api/collections/articles/entries?limit=1000&page=$p"
	done
	curl -s -f -o "$work/dump-tree.json" "http://127.0.0.1:$1/api/collections/pages/tree"
	node -e '
		const fs = require("fs");
		const [db, tree, ...pages] = process.argv.slice(1);
		const entries = [];
		for (const p of pages) entries.push(...JSON.parse(fs.readFileSync(p)).data);
		const doc = {entries, ping: {ping: "pong"}, tree: JSON.parse(fs.readFileSync(tree))};
		fs.writeFileSync(db, JSON.stringify(doc));
	' "$3" "$work/dump-tree.json" $(for p in $(seq 1 "$pages"); do echo "$work/dump-$p.json"; done)
	rm -f "$work"/dump-*.json
}

# label SERVER KIND: the server column of the results: lighttpd's are
# plain "cached", "uncached" and "static" (issue 5's tables and targets),
# the others' "nginx-cached", ...
label() {
	if [ "$1" = lighttpd ]; then echo "$2"; else echo "$1-$2"; fi
}

machine() {
	local cpu mem os
	cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
	mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)
	os=$(. /etc/os-release && echo "$PRETTY_NAME")
	echo "- machine: $cpu, $(nproc --all) cores, $mem; $os, Linux $(uname -r)"
	echo "- servers: $(lighttpd -v 2>&1 | head -1 | cut -d' ' -f1)," \
		"$(/usr/sbin/nginx -v 2>&1 | awk '{print $NF}') (worker_processes $(nginx_processes), keepalive 1)," \
		"$(/usr/sbin/apache2 -v | awk -F': ' '/version/ {print $2}' | cut -d' ' -f1) (event MPM, mod_fcgid)" \
		"with cms-api $("$top/build/cms-api" --version | head -n 1 | awk '{print $NF}')" \
		"($procs FastCGI workers, $(cc --version | head -1 | awk '{print $1, $NF}') -O2);" \
		"json-server $(node "$here/json-server/node_modules/json-server/lib/cli/bin.js" --version)" \
		"on Node.js $(node --version)"
	echo "- load: $(wrk --version 2>&1 | head -1 | awk '{print $1, $2}'), 1 thread, 1 and then $connections" \
		"connections (keep-alive), ${duration} s each, on the same machine"
}
