# cms-api -n: a pool of workers of its own. Behind lighttpd with an
# external socket (no bin-path: lighttpd starts nothing) and straight with
# cgi-fcgi: answers, a killed worker replaced, retirement after
# max_requests, SIGTERM during a slow request, SIGHUP with a new and with a
# broken config under a request loop, TCP, spawn-fcgi handing fd 0, the
# access line. Every wait is bounded; nothing asserts a duration.
# The pool brings its own lighttpd (an external socket): one pass is enough.
once_for_all_servers || return 0
# That pass may be through another server (HTTP_SERVERS=apache): run's
# needs() found lighttpd only for a pass through it.
LIGHTTPD=${LIGHTTPD:-$(find_lighttpd)} || { fail "pool: t_pool needs lighttpd"; return 0; }

SITE="$FIXTURES/site"
PL_LOG="$T/pool.log"
PL_ACCESS="$T/pool-access.log"
PL_SOCK="$T/pool.sock"
PL_PID=

# pl_ini NAME [EXTRA]: the pool's config, info level (the pool says what it
# does there), [api] on, collections on, then EXTRA (INI text).
pl_ini() {
	WORKER_LOG="$PL_LOG" CACHE="$T/pool-cache" site_ini "$1" <<INI
[log]
level = info
[api]
enabled = true
[resources]
collections = true
${2:-}
INI
}

# pl_start INI [ARGS...]: starts "cms-api -c INI ARGS" in the background
# (PL_ENV=NAME=VALUE for extra environment), its output in $T/pool.out;
# PL_PID is the supervisor.
pl_start() {
	local ini=$1
	shift
	: >"$PL_LOG"
	record_document "$ini" # what its answers are checked against (lib.sh)
	env ${PL_ENV:-} ${PL_AS:-} "$CMS_API_BIN" -c "$ini" "$@" >"$T/pool.out" 2>&1 &
	PL_PID=$!
}

# pl_children: the supervisor's workers, one pid a line; pl_watcher: its
# watcher (it names itself cms-api-watch), if any.
pl_children() {
	local pid
	for pid in $(pgrep -P "$PL_PID"); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = cms-api-watch ] || echo "$pid"
	done | sort
}
pl_count() { pl_children | grep -c .; }
pl_watcher() { pgrep -P "$PL_PID" -x cms-api-watch; }

# pl_wait_workers N: up to 5 s for exactly N workers.
pl_wait_workers() {
	for _ in $(seq 1 50); do
		[ "$(pl_count)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# pl_wait_replaced N PID: up to 5 s for N workers, PID not among them
# (reaped: a zombie still counts as a child).
pl_wait_replaced() {
	local now
	for _ in $(seq 1 50); do
		now=$(pl_children)
		[ "$(echo "$now" | grep -c .)" = "$1" ] && ! echo "$now" | grep -qx "$2" && return 0
		sleep 0.1
	done
	return 1
}

# pl_wait_log TEXT [SECONDS]: up to SECONDS (5) for TEXT in the pool's log.
pl_wait_log() {
	for _ in $(seq 1 $((${2:-5} * 20))); do
		grep -qF -- "$1" "$PL_LOG" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# pl_stop: SIGTERM, then the exit status in PL_RC; every worker must have
# ended cleanly (status 0) but those the test killed (signal 9).
pl_stop() {
	kill -TERM "$PL_PID" 2>/dev/null
	wait "$PL_PID"
	PL_RC=$?
	PL_PID=
	if grep -qE "exited with status [1-9]|killed by signal ([0-8]|[1-9][0-9])" "$PL_LOG"; then
		fail "pool: a worker did not end cleanly" "$(grep -E "status [1-9]|signal" "$PL_LOG")"
	fi
}

# pl_fcgi ADDRESS URI [METHOD]: one request straight to the pool; prints
# the answer (status line and body, \r removed).
pl_fcgi() {
	env -i REQUEST_METHOD="${3:-GET}" REQUEST_URI="$2" HTTP_HOST=pool.example \
		cgi-fcgi -bind -connect "$1" </dev/null 2>/dev/null | tr -d '\r' | sed -n '1p;$p'
}

# pl_stop_lighttpd: stops the lighttpd pl_start_lighttpd started.
pl_stop_lighttpd() {
	if [ -n "${PL_LIGHTTPD_PID:-}" ]; then
		kill "$PL_LIGHTTPD_PID" 2>/dev/null
		wait "$PL_LIGHTTPD_PID" 2>/dev/null
		PL_LIGHTTPD_PID=
	fi
}

# pl_start_lighttpd SOCKET: lighttpd on a fresh port handing /api to the
# pool's socket (no bin-path: it starts no worker of its own).
pl_start_lighttpd() {
	pl_stop_lighttpd
	mkdir -p "$T/pool-docroot"
	for _ in 1 2 3 4 5; do
		PORT=$(free_port) || { echo "no free port" >&2; exit 1; }
		cat >"$T/pool-lighttpd.conf" <<CONF
server.modules = ( "mod_fastcgi" )
server.document-root = "$T/pool-docroot"
server.bind = "127.0.0.1"
server.port = $PORT
server.errorlog = "$T/pool-lighttpd-error.log"
fastcgi.server = ( "/api" => ((
	"socket" => "$1",
	"check-local" => "disable",
)))
CONF
		"$LIGHTTPD" -D -f "$T/pool-lighttpd.conf" >"$T/pool-lighttpd.out" 2>&1 &
		PL_LIGHTTPD_PID=$!
		for _ in $(seq 1 100); do
			kill -0 "$PL_LIGHTTPD_PID" 2>/dev/null || break
			grep -q 'server started' "$T/pool-lighttpd-error.log" 2>/dev/null &&
				curl -s -o /dev/null "http://127.0.0.1:$PORT/" && return 0
			sleep 0.05
		done
		pl_stop_lighttpd
	done
	echo "lighttpd did not start:" >&2
	cat "$T/pool-lighttpd.out" "$T/pool-lighttpd-error.log" >&2 2>/dev/null
	exit 1
}

PONG='Status: 200 OK
{"ping":"pong"}'
DOCS='Status: 200 OK
{"data":{"handle":"docs","title":"Docs & Guides","structure":null,"mount":"home","api_url":"http:\/\/pool.example\/api\/collections\/docs"}}'

if ! command -v cgi-fcgi >/dev/null || ! command -v spawn-fcgi >/dev/null; then
	fail "pool: spawn-fcgi and cgi-fcgi are needed (apt-get install spawn-fcgi libfcgi-bin)"
else

# --- 1. three workers behind lighttpd; one killed is replaced -------------------
pl_main_ini=$(pl_ini pool)
pl_start "$pl_main_ini" -n 3 --listen "$PL_SOCK"
pl_wait_workers 3 && pass || fail "pool: 3 workers start" "$(pl_children | tr '\n' ' ')" "$(cat "$T/pool.out")"
pl_mode=$(stat -c %a "$PL_SOCK" 2>/dev/null)
[ "$pl_mode" = 660 ] && pass || fail "pool: --listen socket mode 0660" "$pl_mode"
pl_start_lighttpd "$PL_SOCK"
expect "pool: ping through lighttpd" GET /api/ping 200 '{"ping":"pong"}'
expect "pool: a collection" GET /api/collections/docs 200 \
	"{\"data\":{\"handle\":\"docs\",\"title\":\"Docs & Guides\",\"structure\":null,\"mount\":\"home\",\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/collections\/docs\"}}"

pl_before=$(pl_children)
pl_victim=$(echo "$pl_before" | head -n 1)
kill -9 "$pl_victim"
pl_wait_replaced 3 "$pl_victim" && pass ||
	fail "pool: a killed worker is replaced" "before: $pl_before" "after: $(pl_children)"
pl_after=$(pl_children)
pl_wait_log "worker $pl_victim was killed by signal 9 (Killed): starting another" &&
	pass || fail "pool: the death is logged with its signal" "$(cat "$PL_LOG")"
# The same slot dying again soon after: a back-off, said in the log.
pl_victim2=$(comm -13 <(echo "$pl_before") <(echo "$pl_after"))
kill -9 "$pl_victim2"
pl_wait_log "worker $pl_victim2 was killed by signal 9 (Killed): starting another in 100 ms (2 failures in a row)" &&
	pass || fail "pool: a worker dying again is restarted after a back-off" "$(grep -F "worker $pl_victim2" "$PL_LOG")"
pl_wait_replaced 3 "$pl_victim2" && pass ||
	fail "pool: the slot gets a worker after the back-off" "$(pl_children | tr '\n' ' ')"
pl_codes=
for _ in $(seq 1 20); do
	pl_codes="$pl_codes$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api/ping") "
done
[ "$pl_codes" = "$(printf '200 %.0s' $(seq 1 20))" ] && pass ||
	fail "pool: answers go on after a worker died" "$pl_codes"

# --- 2. SIGHUP: a new config under a request loop; a broken one -------------------
expect "pool: taxonomies off before the reload" GET /api/taxonomies 404 '{"message":"Not found."}'
: >"$T/pool-loop.codes"
rm -f "$T/pool-loop.stop"
(
	for _ in $(seq 1 3000); do
		[ -e "$T/pool-loop.stop" ] && break
		curl -s -m 10 -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$PORT/api/ping" \
			>>"$T/pool-loop.codes"
	done
) &
pl_loop=$!
# pl_loop_past N: up to 10 s for the loop to have made N requests.
pl_loop_past() {
	for _ in $(seq 1 100); do
		[ "$(wc -l <"$T/pool-loop.codes")" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
pl_loop_past 20
pl_old=$(pl_children)
pl_ini pool "[resources]
taxonomies = true" >/dev/null
kill -HUP "$PL_PID"
until_answer "pool: SIGHUP: the new config answers" /api/taxonomies '{"data":[*' 5
for pl_pid in $pl_old; do
	pl_wait_log "worker $pl_pid exited with status 0" ||
		fail "pool: SIGHUP: old worker $pl_pid retires gracefully" "$(grep -F "$pl_pid" "$PL_LOG")"
done
pl_done=$(wc -l <"$T/pool-loop.codes")
pl_loop_past $((pl_done + 20))
touch "$T/pool-loop.stop"
wait "$pl_loop"
pl_total=$(wc -l <"$T/pool-loop.codes")
pl_bad=$(grep -vcx 200 "$T/pool-loop.codes")
if [ "$pl_bad" = 0 ] && [ "$pl_total" -ge 40 ]; then
	pass
else
	fail "pool: no request fails across a reload" "$pl_bad of $pl_total not 200: $(sort "$T/pool-loop.codes" | uniq -c | tr '\n' ' ')"
fi
pl_new=$(pl_children)
pl_kept=$(comm -12 <(echo "$pl_old") <(echo "$pl_new"))
if [ -z "$pl_kept" ] && [ "$(echo "$pl_new" | wc -l)" = 3 ]; then
	pass
else
	fail "pool: SIGHUP replaces every worker" "old: $pl_old" "new: $pl_new"
fi

printf '[nope]\n' >>"$pl_main_ini"
pl_nope_line=$(wc -l <"$pl_main_ini")
kill -HUP "$PL_PID"
pl_wait_log "SIGHUP: $pl_main_ini:" && pass || fail "pool: a broken config on SIGHUP is logged" "$(tail -n 5 "$PL_LOG")"
grep -qF "SIGHUP: $pl_main_ini:$pl_nope_line: unknown section [nope]: the workers go on with the configuration they have" "$PL_LOG" &&
	pass || fail "pool: the broken config's error" "$(grep SIGHUP "$PL_LOG")"
expect "pool: the config in use keeps answering" GET /api/taxonomies/tags 200 \
	"{\"data\":{\"handle\":\"tags\",\"title\":\"Tags\",\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/taxonomies\/tags\"}}"
[ "$(pl_children)" = "$pl_new" ] && pass || fail "pool: a broken config starts and stops nothing" "$pl_new -> $(pl_children)"
pl_stop_lighttpd

pl_stop
[ "$PL_RC" = 0 ] && pass || fail "pool: SIGTERM: exit status 0" "$PL_RC"
[ ! -e "$PL_SOCK" ] && pass || fail "pool: the socket it made is removed at exit"
pl_left=$(pgrep -f "$CMS_API_BIN -c $pl_main_ini")
[ -z "$pl_left" ] && pass || fail "pool: every worker ends with the pool" "$pl_left"

# --- 3. retirement after [server] max_requests --------------------------------------
pl_ret_ini=$(pl_ini retire "[server]
max_requests = 3")
pl_start "$pl_ret_ini" -n 1 --listen "$PL_SOCK"
pl_wait_workers 1
pl_first=$(pl_children)
pl_out1=$(pl_fcgi "$PL_SOCK" /api/ping)
pl_out2=$(pl_fcgi "$PL_SOCK" /api/collections/docs)
[ "$pl_out1$pl_out2" = "$PONG$DOCS" ] && pass || fail "pool: answers with max_requests" "$pl_out1" "$pl_out2"
[ "$(pl_children)" = "$pl_first" ] && pass || fail "pool: the same worker before max_requests" "$pl_first -> $(pl_children)"
pl_out3=$(pl_fcgi "$PL_SOCK" /api/ping)
[ "$pl_out3" = "$PONG" ] && pass || fail "pool: the last request before retiring is answered" "$pl_out3"
pl_second=
for _ in $(seq 1 50); do
	pl_second=$(pl_children)
	[ -n "$pl_second" ] && [ "$pl_second" != "$pl_first" ] && break
	sleep 0.1
done
[ -n "$pl_second" ] && [ "$pl_second" != "$pl_first" ] && pass ||
	fail "pool: a new worker after max_requests" "$pl_first -> $pl_second"
pl_wait_log "retiring after 3 requests ([server] max_requests)" && pass ||
	fail "pool: the retirement is logged" "$(cat "$PL_LOG")"
pl_out4=$(pl_fcgi "$PL_SOCK" /api/ping)
[ "$pl_out4" = "$PONG" ] && pass || fail "pool: the new worker answers" "$pl_out4"
pl_stop
[ "$PL_RC" = 0 ] && pass || fail "pool: max_requests pool exits 0" "$PL_RC"

# --- 4. SIGTERM during a slow request: it completes, the pool exits 0 --------------
# CMS_API_TEST_DELAY_MS (a test hook: only in a build configured with
# --enable-test-hooks) holds each request that long, and logs when it does:
# the signal is sent once the request is in flight.
if needs_test_hooks "pool: SIGTERM during a slow request"; then
	PL_ENV=CMS_API_TEST_DELAY_MS=1500 pl_start "$pl_ret_ini" -n 2 --listen "$PL_SOCK"
	pl_wait_workers 2
	pl_fcgi "$PL_SOCK" /api/collections/docs >"$T/pool-slow.out" &
	pl_client=$!
	pl_wait_log "CMS_API_TEST_DELAY_MS: holding the request for /api/collections/docs" 10 &&
		pass || fail "pool: the slow request reached a worker" "$(cat "$PL_LOG")"
	pl_stop
	wait "$pl_client"
	[ "$(cat "$T/pool-slow.out")" = "$DOCS" ] && pass ||
		fail "pool: SIGTERM: the request in flight completes" "$(cat "$T/pool-slow.out")"
	[ "$PL_RC" = 0 ] && pass || fail "pool: SIGTERM during a request: exit status 0" "$PL_RC"
	[ -z "$(pgrep -f "$CMS_API_BIN -c $pl_ret_ini")" ] && pass ||
		fail "pool: no worker left after SIGTERM" "$(pgrep -af "$CMS_API_BIN -c $pl_ret_ini")"
fi

# Stopped while its workers still open the site: each ends cleanly.
pl_start "$pl_ret_ini" -n 2 --listen "$PL_SOCK"
pl_wait_workers 2
pl_stop
[ "$PL_RC" = 0 ] && pass || fail "pool: stopped at once: exit status 0" "$PL_RC"

# --- 5. --listen :PORT (TCP on 127.0.0.1) ------------------------------------------
pl_port=$(free_port)
pl_start "$pl_main_ini" -n 2 --listen ":$pl_port"
# pl_main_ini is broken (section 2): the pool does not start, and says why.
wait "$PL_PID"
pl_rc=$?
pl_msg=$(head -n 1 "$T/pool.out")
[ "$pl_rc:$pl_msg" = "2:$pl_main_ini:$pl_nope_line: unknown section [nope]" ] && pass ||
	fail "pool: a broken config stops the start" "exit $pl_rc: $pl_msg"
pl_start "$pl_ret_ini" -n 2 --listen ":$pl_port"
pl_wait_workers 2
pl_out=
for _ in $(seq 1 30); do
	pl_out=$(pl_fcgi "127.0.0.1:$pl_port" /api/ping)
	[ -n "$pl_out" ] && break
	sleep 0.1
done
[ "$pl_out" = "$PONG" ] && pass || fail "pool: --listen :PORT answers on 127.0.0.1" "$pl_out" "$(cat "$T/pool.out")"
pl_stop
[ "$PL_RC" = 0 ] && pass || fail "pool: TCP pool exits 0" "$PL_RC"

# --- 6. spawn-fcgi hands the socket on fd 0 to cms-api -n 2 -------------------------
pl_spawn_sock="$T/spawn-pool.sock"
: >"$PL_LOG"
spawn-fcgi -n -s "$pl_spawn_sock" -- "$CMS_API_BIN" -c "$pl_ret_ini" -n 2 >"$T/pool.out" 2>&1 &
PL_PID=$!
pl_wait_workers 2 && pass || fail "pool: spawn-fcgi -n: two workers" "$(pl_children | tr '\n' ' ')" "$(cat "$T/pool.out")"
pl_out=$(pl_fcgi "$pl_spawn_sock" /api/collections/docs)
[ "$pl_out" = "$DOCS" ] && pass || fail "pool: spawn-fcgi -n: answers" "$pl_out"
pl_stop
[ "$PL_RC" = 0 ] && pass || fail "pool: spawn-fcgi -n: exit status 0" "$PL_RC"
# As systemd hands it over: StandardInput=socket without StandardOutput=
# makes fd 1 and 2 the socket too (the pool points them at /dev/null), and
# LISTEN_FDS=1 puts the socket on fd 3.
spawn-fcgi -n -s "$pl_spawn_sock" -- /bin/sh -c \
	'exec 1<&0 2<&0; exec "$0" -c "$1" -n 2' "$CMS_API_BIN" "$pl_ret_ini" >/dev/null 2>&1 &
PL_PID=$!
pl_wait_workers 2
pl_out=$(pl_fcgi "$pl_spawn_sock" /api/ping)
pl_fd2=$(readlink "/proc/$PL_PID/fd/2")
[ "$pl_out:$pl_fd2" = "$PONG:/dev/null" ] && pass ||
	fail "pool: socket on fd 0, 1 and 2: answers, stderr detached" "$pl_out" "fd 2: $pl_fd2"
pl_stop
[ "$PL_RC" = 0 ] && pass || fail "pool: socket on fd 0, 1 and 2: exit status 0" "$PL_RC"
spawn-fcgi -n -s "$pl_spawn_sock" -- /bin/sh -c \
	'exec 3<&0 0</dev/null; LISTEN_PID=$$ LISTEN_FDS=1 exec "$0" -c "$1" -n 2' \
	"$CMS_API_BIN" "$pl_ret_ini" >/dev/null 2>&1 &
PL_PID=$!
pl_wait_workers 2
pl_out=$(pl_fcgi "$pl_spawn_sock" /api/ping)
[ "$pl_out" = "$PONG" ] && pass || fail "pool: LISTEN_FDS=1 (fd 3)" "$pl_out" "$(pl_children)"
pl_stop
[ "$PL_RC" = 0 ] && pass || fail "pool: LISTEN_FDS: exit status 0" "$PL_RC"
expect_cmd "pool: -n without a socket" 2 "cms-api: -n: fd 0 is not a listening socket: start the pool from spawn-fcgi (without -F) or systemd (StandardInput=socket), or give it --listen PATH or --listen [HOST:]PORT" \
	sh -c "'$CMS_API_BIN' -c '$pl_ret_ini' -n 2 </dev/null"
expect_cmd "pool: --listen on a file" 1 "cms-api: --listen: $pl_ret_ini exists and is not a socket" \
	"$CMS_API_BIN" -c "$pl_ret_ini" --listen "$pl_ret_ini"

# --- 7. the access line ------------------------------------------------------------------
pl_acc_ini=$(pl_ini access "[log]
access = $PL_ACCESS")
rm -f "$PL_ACCESS"
pl_start "$pl_acc_ini" -n 1 --listen "$PL_SOCK"
pl_wait_workers 1
pl_fcgi "$PL_SOCK" '/api/collections/docs?x=1' >/dev/null
pl_fcgi "$PL_SOCK" '/api/collections/docs?x=1' >/dev/null
pl_fcgi "$PL_SOCK" '/api/collections/docs?x=1' HEAD >/dev/null
pl_fcgi "$PL_SOCK" '/api/nope' >/dev/null
pl_fcgi "$PL_SOCK" '/api/ping?q=a b"c' >/dev/null
pl_fcgi "$PL_SOCK" '/api/collections/docs?x=1' POST >/dev/null
# Up to 5 s for the six lines (each is written after its answer).
for _ in $(seq 1 50); do
	[ "$(wc -l <"$PL_ACCESS" 2>/dev/null)" -ge 6 ] && break
	sleep 0.1
done
pl_worker=$(pl_children)
pl_re="^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z cms-api\[$pl_worker\]: access: [^ ]+ [^ ]+ [0-9]{3} [0-9]+ [0-9]+ (hit|miss|-)\$"
pl_nonmatching=$(grep -cvE "$pl_re" "$PL_ACCESS")
[ "$pl_nonmatching" = 0 ] && pass || fail "pool: access lines: the format" "$(cat "$PL_ACCESS")"
pl_lines=$(sed -E 's/^.*: access: //; s/ [0-9]+ (hit|miss|-)$/ USEC \1/' "$PL_ACCESS")
pl_want='GET /api/collections/docs?x=1 200 140 USEC miss
GET /api/collections/docs?x=1 200 140 USEC hit
HEAD /api/collections/docs?x=1 200 0 USEC hit
GET /api/nope 404 24 USEC -
GET /api/ping?q=a%20b%22c 200 15 USEC miss
POST /api/collections/docs?x=1 405 33 USEC -'
[ "$pl_lines" = "$pl_want" ] && pass || fail "pool: access lines" "want: $pl_want" "got:  $pl_lines"
pl_stop

# A worker on its own (spawn-fcgi, no -n): SIGHUP reopens the access log too.
pl_single_sock="$T/single.sock"
spawn-fcgi -n -s "$pl_single_sock" -- "$CMS_API_BIN" -c "$pl_acc_ini" >/dev/null 2>&1 &
PL_PID=$!
for _ in $(seq 1 50); do [ -S "$pl_single_sock" ] && break; sleep 0.1; done
pl_out=$(pl_fcgi "$pl_single_sock" /api/ping)
mv "$PL_ACCESS" "$PL_ACCESS.1"
kill -HUP "$PL_PID"
pl_out="$pl_out$(pl_fcgi "$pl_single_sock" /api/ping?after=hup)"
for _ in $(seq 1 50); do [ -s "$PL_ACCESS" ] && break; sleep 0.1; done
pl_rotated=$(sed -E 's/^.*: access: //; s/ [0-9]+ (hit|miss|-)$/ USEC \1/' "$PL_ACCESS" 2>/dev/null)
[ "$pl_out" = "$PONG$PONG" ] && [ "$pl_rotated" = "GET /api/ping?after=hup 200 15 USEC miss" ] &&
	pass || fail "single worker: SIGHUP reopens the access log" "$pl_out" "$pl_rotated"
kill -TERM "$PL_PID"
wait "$PL_PID"
PL_PID=

# --- 8. the watcher is the supervisor's -----------------------------------------------
# It runs with no request made, one killed outright is started again, and
# an edit then moves the static fast path with no request reaching a
# worker. Workers not root (setpriv: it execs, so PL_PID stays the pool).
pl_fp_site="$T/pool-fp-site"
pl_fp_public="$T/pool-fp-public"
pl_fp_sock="$T/pool-fp-run/pool.sock"
rm -rf "$pl_fp_site" "$pl_fp_public" "$T/pool-fp-cache" "$T/pool-fp-run"
cp -r "$FIXTURES/site" "$pl_fp_site"
mkdir -p "$pl_fp_public" "$T/pool-fp-cache" "$T/pool-fp-run"
pl_fp_ini=$(SITE="$pl_fp_site" WORKER_LOG="$PL_LOG" CACHE="$T/pool-fp-cache" site_ini poolfp <<INI
[log]
level = info
[api]
enabled = true
base_url = http://pool.example
[cache]
public_dir = $pl_fp_public
[resources]
collections = true
INI
)
PL_AS=
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$T"
	: >"$PL_LOG"
	chown nobody "$pl_fp_public" "$T/pool-fp-cache" "$T/pool-fp-run" "$PL_LOG"
	PL_AS="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
pl_start "$pl_fp_ini" -n 1 --listen "$pl_fp_sock"
pl_wait_workers 1
await_other "pool: the supervisor runs the watcher" "" pl_watcher
pl_w1=$AWAITED
[ -z "$PL_AS" ] || [ "$(stat -c %U "/proc/$pl_w1")" = nobody ] && pass ||
	fail "pool: the watcher is not root" "$(stat -c %U "/proc/$pl_w1" 2>&1)"
pl_fp_uri=/api/collections/docs
pl_fp_file=$(published_file "$pl_fp_public" "$pl_fp_uri")
for _ in $(seq 1 50); do
	pl_out=$(pl_fcgi "$pl_fp_sock" "$pl_fp_uri")
	[ -s "$pl_fp_file" ] && break
	sleep 0.1
done
[ -s "$pl_fp_file" ] && grep -qF 'Docs & Guides' "$pl_fp_file" && pass ||
	fail "pool: an answer is published for the fast path" "$pl_out" "$(ls -la "$pl_fp_public" 2>&1)"
# Every watcher of the pool, wherever it hangs (an older build's workers
# started their own): none may be left to see the edit below.
for pl_pid in $PL_PID $(pgrep -P "$PL_PID"); do
	pgrep -P "$pl_pid" -x cms-api-watch
done | xargs -r kill -9
await_other "pool: a killed watcher is started again" "$pl_w1" pl_watcher
pl_wait_log "watcher $pl_w1 was killed by signal 9 (Killed): starting another" && pass ||
	fail "pool: the watcher's death is logged" "$(grep -F watcher "$PL_LOG")"
# The edit, and no request: only the new watcher can move the fast path.
sed -i "s/^title: .*/title: 'Docs, edited'/" "$pl_fp_site/content/collections/docs.yaml"
for _ in $(seq 1 100); do
	[ -e "$pl_fp_file" ] || break
	sleep 0.1
done
[ ! -e "$pl_fp_file" ] && pass ||
	fail "pool: an edit withdraws the published answer with no request" "$(ls -la "$pl_fp_public/" 2>&1)"
# The link moves before the generation file names the edit (publication
# order, docs/change-path.md): the worker follows within moments.
for _ in $(seq 1 50); do
	pl_out=$(pl_fcgi "$pl_fp_sock" "$pl_fp_uri")
	case $pl_out in *'Docs, edited'*) break ;; esac
	sleep 0.1
done
case $pl_out in *'Docs, edited'*) pass ;; *) fail "pool: the edit is answered" "$pl_out" ;; esac
pl_stop
[ "$PL_RC" = 0 ] && pass || fail "pool: with its watcher: exit status 0" "$PL_RC"
[ -z "$(pgrep -f "$CMS_API_BIN -c $pl_fp_ini")" ] && pass ||
	fail "pool: the watcher ends with the pool" "$(pgrep -af "$CMS_API_BIN -c $pl_fp_ini")"
PL_AS=

fi
pl_stop_lighttpd
