# The plug-in cache driver ([cache] driver = /path/to/driver.so) through the
# web server, with the example driver (examples/cache-driver/dir-driver.so,
# one file per answer under store_dir) and the broken ones of
# tests/fixtures/cache-drivers/, all built by make check: answers are
# stored in and served from the plug-in's directory, an edit shows at
# once, a damaged entry is a miss, a store that fails costs uncached
# answers and one log line, and a plug-in that cannot be loaded fails
# `cms-api check` and leaves the workers answering, uncached. One worker,
# as a user file permissions hold for, so that "one log line" is exact
# and a directory closed to it fails.

PT="$T/plugin"
mkdir -p "$PT/store" "$PT/cache"
cp -r "$FIXTURES/site" "$PT/site"
BUILT=$(dirname "$CMS_API_BIN")
DIR_DRIVER="$BUILT/examples/cache-driver/dir-driver.so"
WRONG_ABI="$BUILT/tests/cache-drivers/wrong-abi.so"
run_workers_unprivileged "$PT"
WORKER_PROCS=1
PLOG="$PT/worker.log"
PACCESS="$PT/access.log"

# plugin_ini NAME DRIVER [more [cache] lines on stdin]
plugin_ini() {
	{
		printf '[api]\nenabled = true\n[content]\nroot = %s/site\n' "$PT"
		printf '[log]\ntarget = %s\nlevel = info\naccess = %s\n' "$PLOG" "$PACCESS"
		printf '[cache]\ndir = %s/cache\ndriver = %s\n' "$PT" "$2"
		cat
		# The polling below would spend 127.0.0.1's budget of 60 a minute.
		printf '[rate_limit]\nper_minute = 0\n[resources]\ncollections = true\n'
	} >"$PT/$1.ini"
	worker_owns "$PT/$1.ini"
	echo "$PT/$1.ini"
}

# The answers the plug-in keeps (written after the answer went out: polled).
stored() { find "$PT/store" -type f ! -name '.tmp-*' 2>/dev/null | wc -l; }
expect_stored() { # NAME COUNT
	for _ in $(seq 1 40); do
		[ "$(stored)" -eq "$2" ] && { pass; return; }
		sleep 0.05
	done
	fail "$1" "expected $2 stored answers, found $(stored): $(find "$PT/store")"
}

# The access log's cache field (hit, miss, -) of each GET of a path.
uses() { grep -F " access: GET $1 " "$PACCESS" 2>/dev/null | awk '{print $NF}'; }
used() { uses "$1" | wc -l; }
# expect_uses NAME PATH N WANT: the cache fields of the GETs of PATH after
# its first N are WANT ("miss hit ..."), waited for (a worker writes the
# line after the answer went out).
expect_uses() {
	local got want_n
	want_n=$(($3 + $(echo "$4" | wc -w)))
	for _ in $(seq 1 40); do
		[ "$(used "$2")" -ge "$want_n" ] && break
		sleep 0.05
	done
	got=$(uses "$2" | tail -n "+$(($3 + 1))" | tr '\n' ' ')
	[ "${got% }" = "$4" ] && pass || fail "$1" "expected cache uses: $4" "got: $got"
}

# log_lines_since N PATTERN: lines of the worker log after its first N
# that hold PATTERN (grep -F).
log_lines_since() { tail -n "+$(($1 + 1))" "$PLOG" 2>/dev/null | grep -cF -- "$2"; }
log_size() { wc -l <"$PLOG" 2>/dev/null || echo 0; }

HELLO=$PT/site/content/collections/blog/en/2024-01-10.hello-world.md
retitle() { sed -i "s/^title: .*/title: '$1'/" "$HELLO"; }
ONE='/api/collections/blog/entries/hello-world?fields=title'
TWO='/api/collections/blog/entries/hello-world?fields=title,slug'

# --- `cms-api check` loads the plug-in (once: no web server involved) ------
if once_for_all_servers; then
	check_says() { # NAME INI EXIT TEXT: check exits EXIT and prints the line TEXT
		local out rc
		out=$("$CMS_API_BIN" -c "$2" check 2>&1)
		rc=$?
		if [ "$rc" = "$3" ] && printf '%s\n' "$out" | grep -Fxq -- "$4"; then pass; else
			fail "$1" "expected exit $3 and the line: $4" "got exit $rc: $out"; fi
	}
	at() { echo "$1:$(grep -n '^driver' "$1" | cut -d: -f1)"; }
	ini=$(plugin_ini check-ok "$DIR_DRIVER" <<<"store_dir = $PT/store")
	check_says "plugin: check loads the example driver" "$ini" 0 \
		"ok: $PT/site: 2 sites, 4 collections, 11 entries; cache driver dir-driver ($DIR_DRIVER)"
	ini=$(plugin_ini check-abi "$WRONG_ABI" </dev/null)
	check_says "plugin: check refuses a driver of another ABI" "$ini" 1 \
		"$(at "$ini"): [cache] driver: $WRONG_ABI is a cache driver of ABI version 2, but this cms-api loads ABI version 1 only: rebuild it against this cms-api's <cms-api/cache-driver.h>"
	ini=$(plugin_ini check-missing "$PT/absent.so" </dev/null)
	check_says "plugin: check refuses a missing file" "$ini" 1 \
		"$(at "$ini"): [cache] driver: cannot load $PT/absent.so: cannot open shared object file: No such file or directory"
	ini=$(plugin_ini check-nosymbol "$BUILT/tests/cache-drivers/no-symbol.so" </dev/null)
	check_says "plugin: check refuses an object that is no driver" "$ini" 1 \
		"$(at "$ini"): [cache] driver: $BUILT/tests/cache-drivers/no-symbol.so is not a cms-api cache driver: it exports no cms_api_cache_driver()"
	ini=$(plugin_ini check-store "$DIR_DRIVER" <<<"store_dir = $PT/absent")
	check_says "plugin: check tells the driver's own refusal" "$ini" 1 \
		"$(at "$ini"): [cache] driver: $DIR_DRIVER (dir-driver) cannot start: store_dir $PT/absent: No such file or directory"
	ini=$(plugin_ini check-relative "dir-driver.so" </dev/null)
	check_says "plugin: a relative path is a config error" "$ini" 2 \
		"$(at "$ini"): [cache] driver: a plug-in is named by its absolute path, not dir-driver.so"
fi

# --- 1. answers stored in and served from the plug-in's directory ----------
ini=$(plugin_ini example "$DIR_DRIVER" <<<"store_dir = $PT/store")
start_server "$ini" /api
expect "plugin: a miss is answered" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
expect_stored "plugin: the answer is stored in the driver's directory" 1
expect "plugin: a repeat" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
expect_header "plugin: a hit keeps its content type" 'Content-Type: application/json'
expect_uses "plugin: the repeat is a hit" "$ONE" 0 "miss hit"
# The hit came from that file: without it, the next request misses.
find "$PT/store" -type f -delete
expect "plugin: answered after its entry was removed" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
expect_uses "plugin: a removed entry is a miss" "$ONE" 2 "miss"
expect_stored "plugin: stored again" 1

# An edit of a site file shows within a second, cached answers or not.
retitle 'Hello Again'
before=$(used "$ONE")
until_answer "plugin: an edit shows at once" "$ONE" '{"data":{"title":"Hello Again"}}' 1
# Every request of the poll logged (a worker writes its line after the
# answer went out) before the next: else the poll's last line, a miss,
# could come after the hit asked for below.
seen=$((before + UNTIL_REQUESTS))
for _ in $(seq 1 40); do [ "$(used "$ONE")" -ge "$seen" ] && break; sleep 0.05; done
expect "plugin: the edited answer again" GET "$ONE" 200 '{"data":{"title":"Hello Again"}}'
expect_uses "plugin: the edited answer is cached" "$ONE" "$seen" "hit"

# --- 2. a damaged entry is a miss, never a torn or empty 200 ----------------
entry=$(grep -rlF 'Hello Again' "$PT/store" | head -1)
if [ -z "$entry" ]; then
	fail "plugin: the edited answer's entry" "$(find "$PT/store")"
else
	size=$(stat -c %s "$entry")
	seen=$(used "$ONE")
	truncate -s -5 "$entry"
	expect "plugin: a torn entry is not served" GET "$ONE" 200 '{"data":{"title":"Hello Again"}}'
	# The miss puts the whole entry back (by rename, under the same name).
	for _ in $(seq 1 40); do [ "$(stat -c %s "$entry")" = "$size" ] && break; sleep 0.05; done
	: >"$entry"
	expect "plugin: an empty entry is not served" GET "$ONE" 200 '{"data":{"title":"Hello Again"}}'
	expect_uses "plugin: damaged entries are misses" "$ONE" "$seen" "miss miss"
fi

# --- 3. a store that fails: answers uncached, one log line ------------------
# The directory closed to the worker: get and put fail (EACCES).
seen=$(log_size)
chmod 000 "$PT/store"
ok=yes
for i in 1 2 3 4 5; do
	request GET "$ONE"
	[ "$STATUS $BODY" = '200 {"data":{"title":"Hello Again"}}' ] || ok="$i: $STATUS $BODY"
	request GET "$TWO"
	[ "$STATUS $BODY" = '200 {"data":{"title":"Hello Again","slug":"hello-world"}}' ] || ok="$i: $STATUS $BODY"
done
[ "$ok" = yes ] && pass || fail "plugin: a failing store: every answer whole" "$ok"
retitle 'Hello Outage'
until_answer "plugin: a failing store: an edit shows at once" "$ONE" '{"data":{"title":"Hello Outage"}}' 1
# Once by the workers (their outage); the watcher, which could not drop
# the old generation's answers at the edit, says so in a line of its own.
got=$(log_lines_since "$seen" "cache driver dir-driver cannot")
[ "$got" = 1 ] && pass || fail "plugin: a failing store is logged once" "$got lines: $(tail -n "+$((seen + 1))" "$PLOG")"
# (The watcher calls invalidate after it has published the generation.)
for _ in $(seq 1 40); do
	got=$(log_lines_since "$seen" "cache driver dir-driver could not drop the answers")
	[ "$got" = 0 ] || break
	sleep 0.05
done
[ "$got" = 1 ] && pass || fail "plugin: the watcher says once that invalidate failed" "$got lines: $(tail -n "+$((seen + 1))" "$PLOG")"
# Open again: answers are stored again.
chmod 700 "$PT/store"
expect "plugin: the store back" GET "$TWO" 200 '{"data":{"title":"Hello Outage","slug":"hello-world"}}'
for _ in $(seq 1 40); do grep -rqF 'Hello Outage' "$PT/store" && break; sleep 0.05; done
if grep -rqF 'Hello Outage' "$PT/store"; then pass; else
	fail "plugin: the store back, answers are stored again" "$(find "$PT/store")"; fi
stop_server

# --- 4. a plug-in that cannot be loaded: the worker answers, uncached -------
ini=$(plugin_ini wrong-abi "$WRONG_ABI" </dev/null)
seen=$(log_size)
seen_two=$(used "$TWO")
start_server "$ini" /api
for _ in 1 2 3; do
	expect "plugin: a driver that cannot be loaded: answered" GET "$TWO" 200 \
		'{"data":{"title":"Hello Outage","slug":"hello-world"}}'
done
got=$(log_lines_since "$seen" "$WRONG_ABI is a cache driver of ABI version 2")
[ "$got" = 1 ] && pass || fail "plugin: a driver that cannot be loaded is logged once" \
	"$got lines: $(tail -n "+$((seen + 1))" "$PLOG")"
# "-": the cache was not asked (access.h), as with driver = none.
expect_uses "plugin: a driver that cannot be loaded: no cache" "$TWO" "$seen_two" "- - -"
stop_server
WORKER_PROCS=
run_workers_as_tester
