# lib.sh: the HTTP test harness. Starts a real web server on 127.0.0.1 in
# front of the cms-api binary ($SERVER: lighttpd with mod_fastcgi, Apache
# with mod_fcgid, nginx with spawn-fcgi), sends requests with curl and
# compares status, headers and exact bodies. Sourced by run, once per
# server.

set -u

PASSED=0
FAILED=0
T=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-http-XXXXXX")
PORT=

cleanup() {
	stop_server
	# A file system a test mounted under $T (t_faults' full disk) and left
	# mounted by failing half way.
	awk -v t="$T/" 'index($2, t) == 1 {print $2}' /proc/mounts 2>/dev/null |
		while read -r m; do umount -l "$m"; done
	rm -rf "$T"
}
trap cleanup EXIT

pass() { PASSED=$((PASSED + 1)); }
fail() {
	FAILED=$((FAILED + 1))
	printf 'FAIL: [%s] %s\n' "$SERVER" "$1"
	shift
	for line in "$@"; do printf '    %s\n' "$line"; done
}

# A free TCP port on 127.0.0.1 (nothing answers a connect to it).
free_port() {
	local p
	for _ in $(seq 1 200); do
		# Below Linux's ephemeral range (32768 and up), where a port a
		# recent connection used may still be in TIME_WAIT.
		p=$((20000 + RANDOM % 12000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

find_lighttpd() {
	for c in "$(command -v lighttpd 2>/dev/null)" /usr/sbin/lighttpd /usr/local/sbin/lighttpd; do
		[ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
	done
	return 1
}

# write_ini NAME: writes stdin as $T/NAME.ini and prints its path.
write_ini() {
	cat >"$T/$1.ini"
	echo "$T/$1.ini"
}

# site_ini NAME: like write_ini, with $SITE as content root, the worker log
# in ${WORKER_LOG:-$T/worker.log}, the cache in ${CACHE:-$T/cache} and a rate
# limit of ${RATE_PER_MINUTE:-0} put before stdin's sections. The limit is off
# unless a test asks for it: every test's requests come from 127.0.0.1, and
# would share one budget of 60 a minute.
site_ini() {
	{
		printf '[content]\nroot = %s\n[log]\ntarget = %s\n[cache]\ndir = %s\n' \
			"$SITE" "${WORKER_LOG:-$T/worker.log}" "${CACHE:-$T/cache}"
		printf '[rate_limit]\nper_minute = %s\n' "${RATE_PER_MINUTE:-0}"
		printf '[disks.assets]\nroot = %s/public/assets\nurl = /assets\n' "$SITE"
		cat
	} | write_ini "$1"
}

# WORKER_USER (set by a test, e.g. with run_workers_unprivileged): when
# set, the workers run as that user and the server keeps its files in
# $LRUN, which that user owns; else as whoever runs the tests, in $T.
WORKER_USER=
LRUN=

# run_workers_unprivileged DIR: the next server runs its workers as a
# user that file permissions hold for (nobody, when the tests run as root:
# root ignores them), with its own files in DIR/server. The caller makes
# what the workers need (site, cache, log) readable or writable to
# $WORKER_USER_NAME. worker_owns PATH... hands paths over to that user.
# (run runs the Apache pass as nobody already: Apache never runs a
# worker as root.)
run_workers_unprivileged() {
	if [ "$(id -u)" = 0 ]; then
		WORKER_USER=nobody
		WORKER_USER_NAME=nobody
		chmod 755 "$T"
	else
		WORKER_USER=
		WORKER_USER_NAME=$(id -un)
	fi
	LRUN=$1/server
	mkdir -p "$LRUN"
	worker_owns "$1"
}
worker_owns() {
	[ -n "$WORKER_USER" ] && chown -R "$WORKER_USER:$(id -gn "$WORKER_USER")" "$@"
	return 0
}
# run_workers_as_tester: back to the default for the next server.
run_workers_as_tester() {
	WORKER_USER=
	LRUN=
}

# The web server of this pass of the tests: lighttpd (mod_fastcgi),
# apache (mod_fcgid, etc/apache-cms-api.conf) or nginx (spawn-fcgi and
# etc/nginx-cms-api.conf). The shipped snippets are used as written:
# only paths, the port, the prefix and the worker count are substituted.
SERVER=${SERVER:-lighttpd}
SERVER_PID=
# nginx: spawn-fcgi's pid file of the workers it started.
SERVER_WORKERS=
# WORKER_PROCS: how many workers the next server may run (default 2).
WORKER_PROCS=
# LIGHTTPD_EXTRA_CONF: lines a test adds to the next lighttpd's config
# (e.g. server.http-parseopts), empty by default; other servers ignore it.
LIGHTTPD_EXTRA_CONF=
# APACHE_EXTRA_CONF: lines added to the next Apache's server config
# (t_servers: mod_userdir), empty by default.
APACHE_EXTRA_CONF=
# NGINX_WORKER_PROCESSES: nginx's worker_processes (default 1).
NGINX_WORKER_PROCESSES=
# NGINX_EXTRA_CONF: lines added to the next nginx's http { } (t_httpcache:
# gzip), empty by default.
NGINX_EXTRA_CONF=
# TOP: the source tree (the snippets in etc/).
TOP="$HERE/../.."
. "$HERE/servers.sh"

# once_for_all_servers: whether this is the first pass, for a test file
# that uses no web server (t_cli, t_corpora): it runs once, not per server.
once_for_all_servers() { [ "${FIRST_PASS:-yes}" = yes ]; }

# needs_test_hooks WHAT: whether $CMS_API_BIN has the hooks only the tests
# use (configure --enable-test-hooks; its --version says so). When it has
# not, WHAT is not run and counts as a failure that says why: a test that
# needs a hook never passes by being skipped (scripts/test, distcheck and
# make check as the README gives it all configure with the hooks).
needs_test_hooks() {
	"$CMS_API_BIN" --version 2>/dev/null | grep -q '^test hooks: yes' && return 0
	fail "$1: not run: $CMS_API_BIN was built without --enable-test-hooks" \
		"(configure --enable-test-hooks for make check; a build to install has no hooks)"
	return 1
}

# needs_commands WHAT HINT COMMAND...: whether every COMMAND is on PATH.
# Each one missing counts as a failure of WHAT that names it and says,
# by HINT, what installs it: CI installs them all (scripts/install-deps),
# so a test needing them never passes by being skipped.
needs_commands() {
	nc_what=$1 nc_hint=$2 nc_ok=0
	shift 2
	for nc_cmd in "$@"; do
		if ! command -v "$nc_cmd" >/dev/null; then
			fail "$nc_what: $nc_cmd is missing ($nc_hint)"
			nc_ok=1
		fi
	done
	return $nc_ok
}

# only_under SERVER: whether this pass is through that server, for a
# test that depends on one (each use says why).
only_under() { [ "$SERVER" = "$1" ]; }

# start_server INI [PREFIX] [ENV_NAME ENV_VALUE]...: serves cms-api with
# that config under PREFIX (default /api) on a fresh port, through
# $SERVER.
start_server() {
	local ini=$1 prefix=${2:-/api}
	shift 2 2>/dev/null || shift $#
	# A test that left its server running would keep its workers on the
	# shared socket path, and the new server would talk to them.
	if [ -n "$SERVER_PID" ]; then
		stop_server
		wait_workers_gone
	fi
	local run=${LRUN:-$T}
	mkdir -p "$run/docroot" "$run/sockets"
	worker_owns "$run"
	# A port found free may be taken before the server binds it (another
	# test run on the machine): then the server exits, and a new port is
	# tried. Success is the server's own word that it started (a log line,
	# its pid file), not an answer on the port, which could come from
	# someone else's server.
	record_document "$ini" "$@"
	for _ in 1 2 3 4 5; do
		PORT=$(free_port) || { echo "no free port" >&2; exit 1; }
		"start_$SERVER" "$run" "$ini" "$prefix" "$@" && return 0
		[ -n "$SERVER_PID" ] && break
	done
	echo "$SERVER did not start:" >&2
	cat "$run/$SERVER/out" "$run/$SERVER"/*.log >&2 2>/dev/null
	exit 1
}

# wait_started FILE PATTERN SEEN: up to 5 s for the server started in the
# background ($SERVER_PID) to say it started (more than SEEN lines of FILE
# match PATTERN: a log line, or its pid in its pid file) and to answer on
# $PORT. Returns 1 when it exited (its port was taken), 2 when it did not
# start in time.
wait_started() {
	local file=$1 pattern=$2 seen=$3 started
	for _ in $(seq 1 100); do
		if ! kill -0 "$SERVER_PID" 2>/dev/null; then
			wait "$SERVER_PID" 2>/dev/null
			SERVER_PID=
			return 1
		fi
		started=$(grep -c -- "$pattern" "$file" 2>/dev/null)
		if [ "${started:-0}" -gt "${seen:-0}" ] && curl -s -o /dev/null "http://127.0.0.1:$PORT/"; then
			return 0
		fi
		sleep 0.05
	done
	return 2
}

# --- lighttpd: it starts the workers itself (mod_fastcgi, bin-path) -----------
start_lighttpd() { # RUN INI PREFIX [ENV_NAME ENV_VALUE]...
	local run=$1 ini=$2 prefix=$3 user=
	shift 3
	local env="\"CMS_API_CONFIG\" => \"$ini\""
	while [ $# -ge 2 ]; do
		env="$env, \"$1\" => \"$2\""
		shift 2
	done
	mkdir -p "$run/lighttpd"
	worker_owns "$run/lighttpd"
	[ -n "$WORKER_USER" ] &&
		user="server.username = \"$WORKER_USER\"
server.groupname = \"$(id -gn "$WORKER_USER")\""
	# The fast path's snippet first, as Debian's conf-enabled/ orders it
	# (05-...): mod_magnet must be loaded before mod_fastcgi.
	cat >"$T/lighttpd.conf" <<CONF
$(lighttpd_fastpath_conf "$run/lighttpd" "$prefix")
server.modules += ( "mod_fastcgi" )
server.document-root = "$run/docroot"
server.bind = "127.0.0.1"
server.port = $PORT
server.errorlog = "$run/lighttpd/error.log"
server.breakagelog = "$run/lighttpd/worker-stderr.log"
$user
$LIGHTTPD_EXTRA_CONF
fastcgi.server = ( "$prefix" => ((
	"socket" => "$run/sockets/cms-api.sock",
	"bin-path" => "$CMS_API_BIN",
	"bin-environment" => ( $env ),
	"max-procs" => ${WORKER_PROCS:-2},
	"check-local" => "disable",
)))
CONF
	local seen
	seen=$(grep -c 'server started' "$run/lighttpd/error.log" 2>/dev/null)
	"$LIGHTTPD" -D -f "$T/lighttpd.conf" >"$run/lighttpd/out" 2>&1 &
	SERVER_PID=$!
	wait_started "$run/lighttpd/error.log" 'server started' "$seen"
}

# --- Apache: mod_fcgid starts the workers (servers.sh, apache_conf) ---------
start_apache() { # RUN INI PREFIX [ENV_NAME ENV_VALUE]...
	local run=$1 ini=$2 prefix=$3 dir=$1/apache user=
	shift 3
	mkdir -p "$dir/fcgid"
	worker_owns "$dir"
	# Apache refuses to run its children (and so the workers) as root.
	[ "$(id -u)" = 0 ] && user=${WORKER_USER:-nobody}
	{
		apache_conf "$dir" "$PORT" "$run/docroot" "$CMS_API_BIN" "$ini" "$prefix" \
			"${WORKER_PROCS:-2}" "$user"
		while [ $# -ge 2 ]; do
			echo "FcgidInitialEnv $1 $2"
			shift 2
		done
		printf '%s\n' "$APACHE_EXTRA_CONF"
	} >"$dir/httpd.conf"
	start_apache_in "$dir" "$user"
	SERVER_PID=$!
	wait_started "$dir/httpd.pid" "^$SERVER_PID\$" 0
}

# --- nginx: spawn-fcgi starts the workers (servers.sh, nginx_conf) -----------
# As on Debian: started by root, nginx runs its workers as an unprivileged
# user (nobody here), the socket theirs to write.
start_nginx() { # RUN INI PREFIX [ENV_NAME ENV_VALUE]...
	local run=$1 ini=$2 prefix=$3 dir=$1/nginx env=() nginx_user=
	shift 3
	env=(CMS_API_CONFIG="$ini")
	while [ $# -ge 2 ]; do
		env+=("$1=$2")
		shift 2
	done
	mkdir -p "$dir"
	if [ "$(id -u)" = 0 ]; then
		nginx_user=nobody
		# nginx's workers find the socket under $T.
		chmod a+x "$T"
	fi
	# The workers first (once, whatever port nginx is tried on).
	if [ -z "$SERVER_WORKERS" ]; then
		SERVER_WORKERS=$run/spawn-fcgi.pid
		spawn_workers "$run/sockets/cms-api.sock" "${WORKER_PROCS:-2}" "$SERVER_WORKERS" \
			"$nginx_user" "$WORKER_USER" "$CMS_API_BIN" "${env[@]}" >"$T/spawn-fcgi.out" 2>&1 ||
			{ cat "$T/spawn-fcgi.out" >&2; exit 1; }
	fi
	nginx_conf "$dir" "$PORT" "$run/docroot" "$run/sockets/cms-api.sock" "$prefix" \
		"${NGINX_WORKER_PROCESSES:-1}" "$nginx_user" >"$dir/nginx.conf"
	start_nginx_in "$dir"
	SERVER_PID=$!
	wait_started "$dir/nginx.pid" "^$SERVER_PID\$" 0
}

# stop_server: stops the server (and, for nginx, spawn-fcgi's workers).
# Answers after it are of no config record_document knows: not recorded.
stop_server() {
	stop_detached_server "$SERVER_PID:$SERVER_WORKERS"
	SERVER_PID=
	SERVER_WORKERS=
	ANSWER_SRC=
}

# detach_server VAR: leaves the server running, its handle in VAR, so
# that another one can start beside it (LRUN elsewhere);
# stop_detached_server "$VAR" stops it.
detach_server() {
	printf -v "$1" '%s' "$SERVER_PID:$SERVER_WORKERS"
	SERVER_PID=
	SERVER_WORKERS=
}
stop_detached_server() {
	local pid=${1%%:*} workers=${1#*:}
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	fi
	stop_spawned_workers "$workers"
}

# --- every answer against the OpenAPI document (tests/http/openapi-check.py) ---
# Each server started gets the document of its config (`cms-api openapi`,
# with the config's environment), made again when the INI or a file of
# the site changed since (a test that edits them), and each answer
# request() gets is recorded with the document in force and the one before
# it (the workers see a change within a second, not at once); at the end
# of a pass, check_answers checks them all. The document is made from a
# copy of the INI whose log goes nowhere, so that the tests' own logs hold
# only their workers'.
ANSWERS=$T/answers
mkdir -p "$ANSWERS/docs" "$ANSWERS/bodies"
ANSWER_DOC=-
ANSWER_PREV=-
ANSWER_SRC=
ANSWER_INI=
ANSWER_ROOT=
ANSWER_ENV=()
record_document() { # INI [ENV_NAME ENV_VALUE]...
	ANSWER_SRC=$1
	shift
	ANSWER_ENV=()
	while [ $# -ge 2 ]; do
		ANSWER_ENV+=("$1=$2")
		shift 2
	done
	ANSWER_PREV=-
	make_document
}
# make_document: the document of $ANSWER_SRC as it is now.
# Names come from mktemp, not a counter: request() may run in a command
# substitution, whose counter the shell around it never sees.
make_document() {
	rm -f "$ANSWER_INI"
	ANSWER_INI=$(mktemp --suffix=.ini "$(dirname "$ANSWER_SRC")/.openapi-XXXXXX") || return 0
	sed -e 's#^\(target\|access\) *=.*#\1 = /dev/null#' "$ANSWER_SRC" >"$ANSWER_INI" 2>/dev/null
	ANSWER_ROOT=$(awk '/^\[/ {c = ($0 == "[content]")} c && /^root *=/ {sub(/^root *= */, ""); print}' \
		"$ANSWER_SRC" 2>/dev/null)
	case $ANSWER_ROOT in /*) ;; *) ANSWER_ROOT=$(dirname "$ANSWER_SRC")/$ANSWER_ROOT ;; esac
	ANSWER_DOC=$(mktemp --suffix=.json "$ANSWERS/docs/XXXXXX") || return 0
	ANSWER_DOC=${ANSWER_DOC##*/}
	: >"$ANSWERS/made" # when the document was made, for record_answer
	env "${ANSWER_ENV[@]}" "$CMS_API_BIN" -c "$ANSWER_INI" openapi >"$ANSWERS/docs/$ANSWER_DOC" 2>/dev/null ||
		{ rm -f "$ANSWERS/docs/$ANSWER_DOC"; ANSWER_DOC=-; }
}
record_answer() { # METHOD PATH
	local type body made=$ANSWERS/made
	[ -z "$ANSWER_SRC" ] && return 0
	if [ "$ANSWER_SRC" -nt "$made" ] ||
		[ -n "$(find "$ANSWER_ROOT" -newer "$made" -print -quit 2>/dev/null)" ]; then
		ANSWER_PREV=$ANSWER_DOC
		make_document
	fi
	[ "$ANSWER_DOC" = - ] && return 0
	body=$(mktemp "$ANSWERS/bodies/XXXXXX") && cp "$T/body" "$body" 2>/dev/null || return 0
	type=$(tr -d '\r' <"$T/headers" | awk 'tolower($1) == "content-type:" {print $2}' | tail -n 1)
	printf '%s,%s\t%s\t%s\t%s\t%s\tbodies/%s\n' "$ANSWER_DOC" "$ANSWER_PREV" "$1" "$2" \
		"${STATUS:-none}" "$type" "${body##*/}" >>"$ANSWERS/answers.tsv"
}
# check_answers: every answer recorded is one its document names.
check_answers() {
	local out
	if out=$(/usr/bin/python3 "$HERE/openapi-check.py" "$ANSWERS" 2>&1); then
		pass
		printf '%s\n' "$out" | tail -n 1
	else
		fail "answers against the OpenAPI document" "$out"
	fi
}

# request METHOD PATH [curl args...]: sets STATUS and BODY, headers in
# $T/headers.
request() {
	local method=$1 path=$2
	shift 2
	local extra=(-X "$method") out="$T/body"
	case "$method" in
	# lighttpd wants a length on a POST or PUT, even an empty one.
	POST | PUT) extra+=(--data '') ;;
	# Not "-X HEAD": curl would then wait for the body Content-Length
	# announces, until nginx or Apache closed the kept-alive connection.
	# curl reads no body after a HEAD (raw_request shows what came).
	HEAD) extra=(--head) out=/dev/null ;;
	esac
	: >"$T/body"
	# --max-time only keeps a hung server from holding the tests forever.
	curl -s -g --max-time 60 "${extra[@]}" -o "$out" -D "$T/headers" "$@" \
		"http://127.0.0.1:$PORT$path" || true
	STATUS=$(awk 'NR==1 {print $2}' "$T/headers" | tr -d '\r')
	# (A gzip body holds NUL bytes, which a shell variable cannot.)
	BODY=$(tr -d '\0' <"$T/body")
	record_answer "$method" "$path"
}

# expect_data NAME PATH DATA: GET PATH is a 200 whose "data" is exactly DATA
# (a list's links and meta are the pagination tests' business).
expect_data() {
	request GET "$2"
	case "$BODY" in
	"{\"data\":$3,\"links\":"* | "{\"data\":$3}") [ "$STATUS" = 200 ] && { pass; return; } ;;
	esac
	fail "$1: GET $2" "expected: 200 {\"data\":$3,...}" "got:      $STATUS $BODY"
}

# expect NAME METHOD PATH STATUS BODY [curl args...]
expect() {
	local name=$1 method=$2 path=$3 status=$4 body=$5
	shift 5
	request "$method" "$path" "$@"
	if [ "$STATUS" = "$status" ] && [ "$BODY" = "$body" ]; then
		pass
	else
		fail "$name: $method $path" "expected: $status $body" "got:      $STATUS $BODY"
	fi
}

# expect_header NAME 'Name: value': the last response carried that header.
expect_header() {
	local name=$1 header=$2
	if tr -d '\r' <"$T/headers" | grep -Fxqi -- "$header"; then
		pass
	else
		fail "$name: header '$header'" "got: $(tr -d '\r' <"$T/headers" | tr '\n' '|')"
	fi
}

# expect_no_header NAME HEADER-NAME
expect_no_header() {
	if tr -d '\r' <"$T/headers" | grep -qi "^$2:"; then
		fail "$1: unexpected header $2"
	else
		pass
	fi
}

# expect_cmd NAME EXPECTED_EXIT EXPECTED_OUTPUT COMMAND...: runs a command
# (stdout and stderr together) and compares its exit status and output.
expect_cmd() {
	local name=$1 code=$2 want=$3
	shift 3
	local got rc
	got=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = "$code" ] && [ "$got" = "$want" ]; then
		pass
	else
		fail "$name" "expected: exit $code, output: $want" "got:      exit $rc, output: $got"
	fi
}

# raw_request TEXT: sends TEXT on a new connection and prints the whole
# answer, so that what follows the headers can be seen (HEAD).
raw_request() {
	exec 3<>"/dev/tcp/127.0.0.1/$PORT"
	printf '%b' "$1" >&3
	cat <&3
	exec 3<&-
}

# etag_of TEXT: the ETag cms-api gives a 200 whose body is TEXT: the XXH3
# of the body in hex, in quotes (src/http_cache.h).
etag_of() {
	printf '"%s"' "$(printf '%s' "$1" | xxhsum -H3 | grep -oE '[0-9a-f]{16}' | tail -n 1)"
}

# reseal_entry FILE: writes the checksum of a stored answer (the XXH3 of
# every byte after its 33-byte first line, src/cache_entry.c) that a test
# edited back into it, so that a hit serves the edit: the way to see that
# an answer came from the cache. An edit left unsealed is a miss.
reseal_entry() {
	local sum
	sum=$(tail -c +34 "$1" | xxhsum -H3 | grep -oE '[0-9a-f]{16}' | tail -n 1)
	printf '%s' "$sum" | dd of="$1" bs=1 seek=16 conv=notrunc status=none
}

# watchers: how many watchers of this build run (a watcher names itself
# cms-api-watch; workers keep the binary's name).
watchers() {
	local n=0 pid bin
	bin=$(realpath "$CMS_API_BIN")
	for pid in $(pgrep -x cms-api-watch); do
		[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$bin" ] && n=$((n + 1))
	done
	echo "$n"
}

# expect_watchers NAME N: within 3 seconds exactly N watchers run.
expect_watchers() {
	local got
	for _ in $(seq 1 30); do
		got=$(watchers)
		[ "$got" = "$2" ] && { pass; return; }
		sleep 0.1
	done
	fail "$1: $2 watcher(s) expected, $got running" "$(ps -eo pid,ppid,user,comm,args | grep '[c]ms-api')"
}

# await_other NAME OLD COMMAND...: up to 10 s (every 0.1 s) for COMMAND to
# print something, other than OLD (a process replaced by another); what it
# printed last in AWAITED.
await_other() {
	local name=$1 old=$2
	shift 2
	for _ in $(seq 1 100); do
		AWAITED=$("$@")
		[ -n "$AWAITED" ] && [ "$AWAITED" != "$old" ] && { pass; return; }
		sleep 0.1
	done
	fail "$name" "before: $old, now: $AWAITED"
}

# until_answer NAME PATH PATTERN [SECONDS]: polls (every 0.1 s, up to
# SECONDS, default 5) until the body of GET PATH matches PATTERN (a glob).
until_answer() {
	local name=$1 path=$2 pattern=$3 tries=$((${4:-5} * 10))
	UNTIL_REQUESTS=0 # how many it asked, for a test that counts log lines
	for _ in $(seq 1 "$tries"); do
		request GET "$path"
		UNTIL_REQUESTS=$((UNTIL_REQUESTS + 1))
		# shellcheck disable=SC2254
		case "$BODY" in $pattern) pass; return ;; esac
		sleep 0.1
	done
	fail "$name" "last answer: $STATUS $BODY"
}

# wait_workers_gone: up to 3 s for the workers and watchers of the last
# server to end (they may still hold files open in a moment).
wait_workers_gone() {
	for _ in $(seq 1 30); do
		pgrep -f "^$CMS_API_BIN\$" >/dev/null || return 0
		sleep 0.1
	done
}

# expect_no_workers: every cms-api process the tests started (workers and
# their watchers) has ended.
expect_no_workers() {
	for _ in $(seq 1 20); do
		pgrep -f "^$CMS_API_BIN\$" >/dev/null || { pass; return; }
		sleep 0.1
	done
	fail "cms-api processes still running after $SERVER stopped" "$(pgrep -af "^$CMS_API_BIN\$")"
}

# --- the static fast path ([cache] public_dir; t_fastpath, t_servers) ---------
# access_seen LOG METHOD URI: how many times a worker logged that request
# in its access log LOG.
access_seen() { grep -cF ": access: $2 $3 " "$1" 2>/dev/null; }
# access_sync LOG PREFIX: a request that always reaches the worker under
# PREFIX (a HEAD is never published), and up to 5 s for its line in LOG:
# every request sent before it that reached the worker is then logged.
ACCESS_MARK=0
access_sync() {
	ACCESS_MARK=$((ACCESS_MARK + 1))
	request HEAD "$2/api/ping?mark=$ACCESS_MARK"
	for _ in $(seq 1 50); do
		grep -qF ": access: HEAD $2/api/ping?mark=$ACCESS_MARK " "$1" 2>/dev/null && return
		sleep 0.1
	done
	fail "the worker never logged HEAD $2/api/ping?mark=$ACCESS_MARK"
}
# published_file PUBLIC URI: the file under the public_dir PUBLIC that
# URI is answered from.
published_file() {
	local path=${2%%\?*} query=
	[ "$path" != "$2" ] && query=${2#*\?}
	echo "$1/current$path@$query.json"
}
# expect_published NAME PUBLIC URI: up to 5 s for URI's file (written
# after the answer was sent) to hold exactly the body of the last answer.
expect_published() {
	local f
	f=$(published_file "$2" "$3")
	cp "$T/body" "$T/published-expected"
	for _ in $(seq 1 50); do
		cmp -s "$f" "$T/published-expected" && { pass; return; }
		sleep 0.1
	done
	fail "$1: $f" "expected the answer's bytes, found: $(head -c 200 "$f" 2>&1)"
}
# expect_static NAME LOG PREFIX URI: a repeat of URI gets the bytes of the
# last answer, as application/json, without reaching the worker (LOG and
# PREFIX as for access_sync). After expect_published: a worker logs an
# answer before it publishes it, so the first request is counted.
expect_static() {
	local name=$1 log=$2 prefix=$3 uri=$4 before
	cp "$T/body" "$T/static-first"
	before=$(access_seen "$log" GET "$uri")
	request GET "$uri"
	if [ "$STATUS" = 200 ] && cmp -s "$T/body" "$T/static-first"; then pass; else
		fail "$name: the repeat's answer" "$STATUS $(head -c 200 "$T/body")"
	fi
	expect_header "$name: the repeat's type" 'Content-Type: application/json'
	access_sync "$log" "$prefix"
	[ "$(access_seen "$log" GET "$uri")" = "$before" ] && pass ||
		fail "$name: the repeat reached the worker" "$(grep -F " $uri " "$log")"
}

# gen_index FILE, gen_cache FILE, gen_cache_signature FILE: the index and
# cache generations, and the signature that names the cache's answers, of a
# generation file ("cms-api-generation 5 INDEX CACHE SIGNATURE CACHE_SIGNATURE FLAGS
# CONFIG_PRINT CHECK").
gen_index() { awk '{print $3}' "$1" 2>/dev/null; }
gen_cache() { awk '{print $4}' "$1" 2>/dev/null; }
gen_cache_signature() { awk '{print $6}' "$1" 2>/dev/null; }

summary() {
	echo "http: $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}
