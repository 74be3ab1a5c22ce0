# The Redis cache driver through the web server, against a redis-server this
# file starts on a free port: two worker pools (two servers, each on a cache
# directory of its own, one site, one Redis) share entries and invalidation;
# Redis killed, stopped, restarted empty and full; cms-api cache stats and
# clear; check's word on a bad [cache] key. Once, whatever the server: the
# driver sits below it. Workers run as a user file permissions hold for.

rd_skip=
once_for_all_servers || rd_skip=yes
if [ -z "$rd_skip" ] && { ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; }; then
	echo "note: redis-server is not installed: the Redis cache driver is not tested here" \
		"(scripts/install-deps installs it)"
	rd_skip=yes
fi

if [ -z "$rd_skip" ]; then
RD="$T/redis-cache"
mkdir -p "$RD/redis" "$RD/a" "$RD/b"
cp -r "$FIXTURES/site" "$RD/site"
RD_PORT=$(free_port)
RD_PID=

rd_cli() { redis-cli -p "$RD_PORT" "$@"; }

# rd_start: redis-server on $RD_PORT, no persistence, answering PING.
rd_start() {
	redis-server --port "$RD_PORT" --bind 127.0.0.1 --save '' --appendonly no \
		--dir "$RD/redis" --logfile "$RD/redis/log" >/dev/null 2>&1 &
	RD_PID=$!
	for _ in $(seq 1 100); do
		[ "$(rd_cli ping 2>/dev/null)" = PONG ] && return 0
		kill -0 "$RD_PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
rd_stop() {
	[ -n "$RD_PID" ] || return 0
	kill -CONT "$RD_PID" 2>/dev/null
	kill "$RD_PID" 2>/dev/null
	wait "$RD_PID" 2>/dev/null
	RD_PID=
}

# Each pool its own cache directory, logs and access log, named by
# absolute paths, so the two files differ: only in [log] and [cache],
# which the config's fingerprint (and so the cache key) leaves out.
for rd_pool in a b; do
	cat >"$RD/$rd_pool/cms-api.ini" <<INI
[api]
enabled = true
base_url = http://cms.example
[content]
root = $RD/site
[log]
target = $RD/$rd_pool/worker.log
level = info
access = $RD/$rd_pool/access.log
[cache]
dir = $RD/$rd_pool/cache
driver = redis
port = $RD_PORT
prefix = rtest:
timeout = 200
[rate_limit]
per_minute = 0
[resources]
collections = true
INI
done
run_workers_unprivileged "$RD"

# rd_get POOL PATH: GET PATH through that pool; sets STATUS, BODY, and
# from the pool's access line (written after the answer, so waited for)
# RD_CACHE (hit, miss or -) and RD_USEC.
rd_lines() { if [ -f "$RD/$1/access.log" ]; then grep -c ': access: ' "$RD/$1/access.log"; else echo 0; fi; }
rd_get() {
	local before
	before=$(rd_lines "$1")
	if [ "$1" = a ]; then PORT=$RD_A; else PORT=$RD_B; fi
	request GET "$2"
	for _ in $(seq 1 60); do
		[ "$(rd_lines "$1")" -gt "$before" ] && break
		sleep 0.05
	done
	local line
	line=$(grep ': access: ' "$RD/$1/access.log" | tail -n 1)
	RD_CACHE=${line##* }
	line=${line% *}
	RD_USEC=${line##* }
}
# rd_want PATH: the answer as cms-api computes it, uncached (base_url
# makes it the same through any host).
rd_want() { "$CMS_API_BIN" -c "$RD/a/cms-api.ini" get "$1" 2>/dev/null | sed '1,/^$/d'; }
# rd_expect NAME POOL PATH CACHE: the exact answer, and hit or miss.
rd_expect() {
	local want
	want=$(rd_want "$3")
	rd_get "$2" "$3"
	if [ "$STATUS" = 200 ] && [ "$BODY" = "$want" ] && [ "$RD_CACHE" = "$4" ]; then pass; else
		fail "$1: GET $3 through pool $2" "expected: 200 $4 $want" "got:      $STATUS $RD_CACHE $BODY"
	fi
}
# rd_quiet POOL: waits for the access lines of requests rd_get did not
# make (until_answer's) to be written, so that rd_get reads its own.
rd_quiet() {
	local n
	for _ in $(seq 1 20); do
		n=$(rd_lines "$1")
		sleep 0.1
		[ "$(rd_lines "$1")" = "$n" ] && return
	done
}
rd_log_count() { grep -cE "$2" "$RD/$1/worker.log" 2>/dev/null || true; }
rd_keys() { rd_cli --scan --pattern 'rtest:*' 2>/dev/null | sort; }
# rd_until_keys NAME PATTERN COUNT: up to 3 s for COUNT keys to match.
rd_until_keys() {
	local n
	for _ in $(seq 1 60); do
		n=$(rd_cli --scan --pattern "$2" 2>/dev/null | grep -c .)
		[ "$n" = "$3" ] && { pass; return; }
		sleep 0.05
	done
	fail "$1" "$3 keys like $2 expected, $n there: $(rd_keys | tr '\n' ' ')"
}
# rd_generation POOL: the pool's cache generation as entries are named.
rd_generation() { "$CMS_API_BIN" -c "$RD/$1/cms-api.ini" cache stats 2>/dev/null | sed -n 's/^generation: //p'; }

if ! rd_start; then
	fail "redis: redis-server did not start" "$(cat "$RD/redis/log" 2>/dev/null)"
else
	start_server "$RD/a/cms-api.ini" /api
	RD_A=$PORT
	detach_server RD_POOL_A
	LRUN="$RD/server-b" start_server "$RD/b/cms-api.ini" /api
	RD_B=$PORT

	# --- 1. one pool's answer is the other's hit --------------------------------
	LIST='/api/collections/blog/entries?fields=title,slug'
	rd_expect "redis: a miss on pool A" a "$LIST" miss
	rd_until_keys "redis: the answer is stored in Redis" 'rtest:*' 1
	rd_expect "redis: a hit on pool B, from pool A's answer" b "$LIST" hit
	rd_expect "redis: a hit on pool A" a "$LIST" hit
	rd_gen_a=$(rd_generation a)
	rd_gen_b=$(rd_generation b)
	case "$(rd_keys)" in
	"rtest:$rd_gen_a:"????????????????) [ "$rd_gen_a" = "$rd_gen_b" ] && pass ||
		fail "redis: both pools name the generation alike" "$rd_gen_a and $rd_gen_b" ;;
	*) fail "redis: an entry is named PREFIX + generation + key hash" "$(rd_keys)" "generation $rd_gen_a" ;;
	esac

	# --- 2. an edit: both pools answer fresh within a second or so --------------
	ONE='/api/collections/blog/entries/hello-world?fields=title'
	rd_expect "redis: an entry cached on A" a "$ONE" miss
	rd_expect "redis: and served to B" b "$ONE" hit
	sed -i "s/^title: 'Hello World'/title: 'Hello Redis'/" \
		"$RD/site/content/collections/blog/en/2024-01-10.hello-world.md"
	PORT=$RD_A
	until_answer "redis: the edit shows on pool A" "$ONE" '*"Hello Redis"*' 3
	PORT=$RD_B
	until_answer "redis: the edit shows on pool B" "$ONE" '*"Hello Redis"*' 3
	rd_quiet a
	rd_quiet b
	rd_gen_a=$(rd_generation a)
	[ "$rd_gen_a" = "$(rd_generation b)" ] && [ "$rd_gen_a" != "$rd_gen_b" ] && pass ||
		fail "redis: both pools moved to one new generation" "$rd_gen_b -> $rd_gen_a, $(rd_generation b)"
	# The watchers unlink the old generation's entries (they would expire).
	rd_until_keys "redis: the old generation's entries are gone" "rtest:$rd_gen_b:*" 0
	rd_expect "redis: after the edit, B's answer" b "$ONE" hit

	# --- 3. Redis killed: uncached answers, one line, then back empty ------------
	rd_stop
	LIST2='/api/collections/blog/entries?fields=title&limit=2'
	for i in $(seq 1 15); do
		rd_expect "redis down: answered uncached ($i)" a "$LIST2" miss
		sleep 0.1 # across the driver's second of rest, twice at least
	done
	rd_down=$(rd_log_count a "cache: Redis at 127\.0\.0\.1:$RD_PORT cannot be read \(cannot connect")
	[ "$rd_down" = 1 ] && pass || fail "redis down: one log line" "$(cat "$RD/a/worker.log")"
	if rd_start; then pass; else fail "redis: redis-server did not start again"; fi
	# Restarted empty: misses, then fills.
	rd_seen=
	for _ in $(seq 1 40); do
		rd_get a "$LIST2"
		[ "$STATUS" = 200 ] && [ "$BODY" = "$(rd_want "$LIST2")" ] || break
		[ "$RD_CACHE" = hit ] && { rd_seen=yes; break; }
		sleep 0.1
	done
	[ -n "$rd_seen" ] && pass || fail "redis back empty: misses, then a hit" "$STATUS $RD_CACHE $BODY"
	rd_back=$(rd_log_count a "cache: Redis at 127\.0\.0\.1:$RD_PORT works again")
	[ "$rd_back" = 1 ] && pass || fail "redis back: one log line" "$(cat "$RD/a/worker.log")"

	# --- 4. Redis stopped (slow): each answer within the timeout ----------------
	kill -STOP "$RD_PID"
	LIST3='/api/collections/blog/entries?fields=slug&limit=3'
	rd_slowest=0
	for i in $(seq 1 12); do
		rd_expect "redis stopped: answered uncached ($i)" a "$LIST3" miss
		[ "$RD_USEC" -gt "$rd_slowest" ] && rd_slowest=$RD_USEC
		sleep 0.1
	done
	kill -CONT "$RD_PID"
	# timeout = 200 (ms), and a wide margin for a loaded machine: a driver
	# that waited for Redis would wait until SIGCONT.
	[ "$rd_slowest" -lt 1000000 ] && pass ||
		fail "redis stopped: each answer within the timeout and a margin" "slowest: $rd_slowest us"
	rd_down=$(rd_log_count a "cache: Redis at 127\.0\.0\.1:$RD_PORT cannot be read \(GET: no answer within")
	[ "$rd_down" = 1 ] && pass || fail "redis stopped: one log line" "$(cat "$RD/a/worker.log")"
	for _ in $(seq 1 40); do
		rd_get a "$LIST3"
		[ "$RD_CACHE" = hit ] && break
		sleep 0.1
	done
	[ "$RD_CACHE" = hit ] && pass || fail "redis going on: hits again" "$STATUS $RD_CACHE $BODY"
	rd_back=$(rd_log_count a "cache: Redis at 127\.0\.0\.1:$RD_PORT works again")
	[ "$rd_back" = 2 ] && pass || fail "redis going on: one more log line" "$(cat "$RD/a/worker.log")"

	# --- 5. Redis full (maxmemory 1mb, noeviction): answers right, one line -----
	# A filler first (an empty Redis takes about 900 KB), then the limit:
	# every SET is refused from then on.
	head -c 300000 /dev/zero | tr '\0' x | rd_cli -x set rtest-filler >/dev/null
	rd_cli config set maxmemory-policy noeviction >/dev/null
	rd_cli config set maxmemory 1mb >/dev/null
	rd_refused=$(rd_cli set rtest-probe x)
	case "$rd_refused" in OOM*) pass ;; *) fail "redis full: Redis refuses a SET" "$rd_refused" ;; esac
	for i in $(seq 1 10); do
		rd_expect "redis full: answered ($i)" a "/api/collections/blog/entries?fields=slug,title&limit=$i" miss
	done
	rd_full=$(rd_log_count a "cache: Redis at 127\.0\.0\.1:$RD_PORT cannot store answers \(SET: OOM")
	[ "$rd_full" = 1 ] && pass || fail "redis full: one log line" "$(cat "$RD/a/worker.log")"
	rd_cli del rtest-filler >/dev/null
	rd_cli config set maxmemory 0 >/dev/null
	rd_expect "redis room again: stored" a "/api/collections/blog/entries?fields=slug,title&limit=4" miss
	rd_expect "redis room again: a hit" a "/api/collections/blog/entries?fields=slug,title&limit=4" hit
	rd_back=$(rd_log_count a "cache: Redis at 127\.0\.0\.1:$RD_PORT works again")
	[ "$rd_back" = 3 ] && pass || fail "redis room again: one log line" "$(cat "$RD/a/worker.log")"

	# --- 6. cache stats and clear ---------------------------------------------------
	rd_stats=$("$CMS_API_BIN" -c "$RD/a/cms-api.ini" cache stats 2>&1)
	rd_entries=$(printf '%s\n' "$rd_stats" | sed -n 's/^entries: //p')
	rd_hits=$(printf '%s\n' "$rd_stats" | sed -n 's/^hits: //p')
	case "$rd_stats" in
	"driver: redis (127.0.0.1:$RD_PORT)"*"hit ratio: "*%*"since: "*) pass ;;
	*) fail "redis: cache stats" "$rd_stats" ;;
	esac
	[ "${rd_entries:-0}" -ge 2 ] && [ "${rd_hits:-0}" -ge 3 ] && pass ||
		fail "redis: cache stats counts entries and hits" "$rd_stats"
	rd_cli set rtest:ratelimit:0123456789abcdef 1 >/dev/null
	rd_clear=$("$CMS_API_BIN" -c "$RD/a/cms-api.ini" cache clear 2>&1)
	case "$rd_clear" in
	"removed "[0-9]*" cached answers from Redis at 127.0.0.1:$RD_PORT") pass ;;
	*) fail "redis: cache clear" "$rd_clear" ;;
	esac
	[ "$(rd_keys)" = rtest:ratelimit:0123456789abcdef ] && pass ||
		fail "redis: cache clear removes the entries, not the rate limit's counters" "$(rd_keys)"
	rd_stats=$("$CMS_API_BIN" -c "$RD/a/cms-api.ini" cache stats 2>&1)
	case "$rd_stats" in
	*"entries: 0"*"hits: 0"*"misses: 0"*) pass ;;
	*) fail "redis: after clear, nothing and no count" "$rd_stats" ;;
	esac
	rd_expect "redis: after clear, a miss" b "$LIST" miss

	stop_detached_server "$RD_POOL_A"
	stop_server
fi
rd_stop

# --- 7. check: a bad [cache] key of the driver, with its line ------------------
sed 's/^timeout = 200$/timeout = soon/' "$RD/a/cms-api.ini" >"$RD/bad.ini"
rd_check=$("$CMS_API_BIN" -c "$RD/bad.ini" check 2>&1)
rd_rc=$?
case "$rd_check" in
*"$RD/bad.ini:15: [cache] timeout: not a number of milliseconds (1 to 60000): soon"*)
	[ "$rd_rc" = 1 ] && pass || fail "redis: check fails on a bad key" "exit $rd_rc" ;;
*) fail "redis: check names the bad key and its line" "$rd_check" ;;
esac
run_workers_as_tester
fi
