# What an operator meets in the first week, through the web server with workers
# that file permissions hold for (nobody when the tests run as root): the
# cache directory cleared, deleted, read-only or full, the site unreadable
# or moved away, broken YAML, a log rotated under SIGHUP. Each time: what
# the client sees, what the log says, how many watchers run.

FT="$T/faults"
mkdir -p "$FT"
cp -r "$FIXTURES/site" "$FT/site"
mkdir -p "$FT/cache"
run_workers_unprivileged "$FT"
FLOG="$FT/worker.log"

# fault_ini NAME CACHE_DIR [more [cache] lines on stdin]
fault_ini() {
	{
		printf '[api]\nenabled = true\n[content]\nroot = %s/site\n' "$FT"
		printf '[log]\ntarget = %s\nlevel = info\n[cache]\ndir = %s\n' "$FLOG" "$2"
		cat
		# The polling below would spend 127.0.0.1's budget of 60 a minute.
		printf '[rate_limit]\nper_minute = 0\n'
		printf '[resources]\ncollections = true\n'
	} >"$FT/$1.ini"
	worker_owns "$FT/$1.ini"
	echo "$FT/$1.ini"
}

# log_count PATTERN: lines of the worker log matching PATTERN (grep -E).
log_count() { grep -cE "$1" "$FLOG" 2>/dev/null || true; }

team_title() { printf 'title: %s\nstructure:\n  max_depth: 1\n' "$1" >"$FT/site/content/collections/team.yaml"; }

# worker_pids: the cms-api processes of this build running now (workers
# and the watcher), sorted, on one line.
worker_pids() {
	local bin pid
	bin=$(realpath "$CMS_API_BIN")
	for pid in $(pgrep -f "^$CMS_API_BIN\$"); do
		[ "$(readlink "/proc/$pid/exe")" = "$bin" ] && echo "$pid"
	done | sort | tr '\n' ' '
}

# --- 1. the cache directory cleared, twice, then deleted -------------------
ini=$(fault_ini clear "$FT/cache" </dev/null)
start_server "$ini" /api
expect "faults: before clearing" GET /api/collections/team 200 \
	"{\"data\":{\"handle\":\"team\",\"title\":\"Team\",\"structure\":{\"max_depth\":1,\"expects_root\":false},\"mount\":null,\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/collections\/team\"}}"
expect_watchers "faults: one watcher" 1
for title in Crew Staff; do
	rm -rf "${FT:?}/cache/"*
	team_title "$title"
	until_answer "faults: an edit right after clearing the cache shows ($title)" \
		/api/collections/team "*\"title\":\"$title\"*"
	expect_watchers "faults: still one watcher after clearing ($title)" 1
done
if [ "$(log_count 'was removed: made it again')" -ge 1 ]; then pass; else
	fail "faults: the watcher says it made its files again" "$(cat "$FLOG")"; fi
# The whole directory, not only what is in it.
rm -rf "$FT/cache"
team_title Squad
until_answer "faults: an edit after deleting the cache directory shows" \
	/api/collections/team '*"title":"Squad"*'
expect_watchers "faults: one watcher after deleting the directory" 1
[ -d "$FT/cache" ] && pass || fail "faults: the cache directory was made again"
# Answers are stored again once a generation is there.
request GET /api/collections/team
request GET /api/collections/team
if ls "$FT"/cache/responses-*/* >/dev/null 2>&1; then pass; else
	fail "faults: answers are cached again after the clearing" "$(ls -R "$FT/cache")"; fi
stop_server
expect_watchers "faults: the watcher ends with its workers" 0

# --- 2. a cache directory that cannot be used when the workers start ------
ROC="$FT/ro-cache"
mkdir -p "$ROC"
worker_owns "$ROC"
chmod 555 "$ROC"
ini=$(fault_ini readonly "$ROC" </dev/null)
: >"$FLOG"
worker_owns "$FLOG"
start_server "$ini" /api
until_answer "faults: a read-only cache directory: answers all the same" \
	/api/collections/team '*"title":"Squad"*'
if [ "$(log_count 'is not usable \(Permission denied\)')" -ge 1 ]; then pass; else
	fail "faults: the log says the cache directory is not usable" "$(cat "$FLOG")"; fi
# ... for whom, what that costs, and how to mend it.
if [ "$(log_count "is not usable \(Permission denied\) for $WORKER_USER_NAME, the user this worker runs as: answers are not cached.*install -d -o $WORKER_USER_NAME -m 0700 $ROC\)")" -ge 1 ]; then pass; else
	fail "faults: the log says who cannot use the cache directory, and the fix" "$(cat "$FLOG")"; fi
expect_watchers "faults: no watcher without a cache directory" 0
team_title Band
until_answer "faults: without a cache directory, edits still show" \
	/api/collections/team '*"title":"Band"*'
chmod 755 "$ROC"
until_answer "faults: the directory fixed, answers go on" /api/collections/team '*"title":"Band"*'
for _ in $(seq 1 40); do
	[ "$(log_count 'is usable again')" -ge 1 ] && break
	request GET /api/collections/team
	sleep 0.1
done
if [ "$(log_count 'is usable again')" -ge 1 ]; then pass; else
	fail "faults: the workers go back to sharing by themselves" "$(cat "$FLOG")"; fi
expect_watchers "faults: a watcher once the directory works" 1
team_title Troupe
until_answer "faults: back to sharing, edits show" /api/collections/team '*"title":"Troupe"*'
if ls "$ROC"/index-*.snap >/dev/null 2>&1; then pass; else
	fail "faults: back to sharing, the index is shared" "$(ls "$ROC")"; fi
stop_server

# --- 3. a full file system under the cache ---------------------------------
# A small tmpfs, filled up: content updates do not wait for free space,
# the oldest answers go at once to make room, and the log says so once a
# minute, not once a request. The test runner mounts it as root before the
# pass (which may run as nobody) and hands it over in CMS_API_TEST_FULLFS;
# run alone, as root, the test mounts its own.
FULL=${CMS_API_TEST_FULLFS:-}
if [ -z "$FULL" ] && [ "$(id -u)" = 0 ] && mkdir -p "$FT/full" &&
	mount -t tmpfs -o size=4m,mode=0755 cms-api-test "$FT/full" 2>/dev/null; then
	FULL=$FT/full
fi
if [ -n "$FULL" ]; then
	mkdir -p "$FULL/cache"
	worker_owns "$FULL/cache"
	ini=$(fault_ini full "$FULL/cache" </dev/null)
	: >"$FLOG"
	worker_owns "$FLOG"
	start_server "$ini" /api
	stored_answers() { find "$FULL/cache" -path '*/responses-*/*' -type f ! -name '.*' | sort; }
	for i in $(seq 1 40); do request GET "/api/collections/blog/entries?before=$i"; done
	stored_answers >"$FT/full-before"
	dd if=/dev/zero of="$FULL/filler" bs=64k 2>/dev/null || true
	for i in $(seq 1 200); do request GET "/api/collections/blog/entries?after=$i"; done
	stored_answers >"$FT/full-after"
	gone=$(comm -23 "$FT/full-before" "$FT/full-after" | wc -l)
	new=$(comm -13 "$FT/full-before" "$FT/full-after" | wc -l)
	if [ "$gone" -gt 0 ] && [ "$new" -gt 0 ]; then pass; else
		fail "faults: a full disk: the oldest answers go to make room for new ones" \
			"$gone of the answers before are gone, $new new ones stored"; fi
	if [ "$(log_count 'removed [0-9]+ cached answers to make room')" -ge 1 ]; then pass; else
		fail "faults: a full disk: the log says room was made" "$(cat "$FLOG")"; fi
	warnings=$(log_count 'cannot store a cached answer')
	if [ "$warnings" -le 2 ]; then pass; else
		fail "faults: a full disk: a failing write is logged once a minute, not per request" \
			"$warnings lines"; fi
	team_title Choir
	until_answer "faults: a full disk: edits still show" /api/collections/team '*"title":"Choir"*'
	# Workers started on a disk full to the last block, the files they map
	# made anew (the cache's counters): nothing is mapped that could not be
	# allocated (a hole written through a mapping is a SIGBUS), so no
	# worker dies, and every answer is a 200, uncached.
	stop_server
	wait_workers_gone
	rm -f "$FULL"/cache/cachestats-*
	dd if=/dev/zero of="$FULL/filler2" bs=4k 2>/dev/null || true
	start_server "$ini" /api
	request GET /api/ping
	before=$(worker_pids)
	codes=$(for i in $(seq 1 30); do
		curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$PORT/api/collections/blog/entries?full=$i"
	done | sort | uniq -c | tr -s ' ')
	[ "$codes" = " 30 200" ] && pass || fail "faults: a full disk: every answer a 200" "$codes"
	after=$(worker_pids)
	[ "$before" = "$after" ] && pass ||
		fail "faults: a full disk: no worker dies (SIGBUS)" "$before -> $after" "$(cat "$FLOG")"
	stop_server
	wait_workers_gone
	rm -rf "${FULL:?}/filler" "${FULL:?}/filler2" "${FULL:?}/cache"
	[ "$FULL" = "$FT/full" ] && { umount "$FT/full" 2>/dev/null || umount -l "$FT/full"; }
else
	echo "faults: no tmpfs could be mounted (not root, and no sudo without a password):" \
		"the full-disk checks are skipped"
fi

# --- 4. [cache] max_size holds at all times ---------------------------------
ini=$(fault_ini bounded "$FT/bounded-cache" <<'INI'
max_size = 1
INI
)
mkdir -p "$FT/bounded-cache"
worker_owns "$FT/bounded-cache"
start_server "$ini" /api
answers_size() {
	find "$FT/bounded-cache" -path '*/responses-*/*' -type f ! -name '.*' -printf '%s\n' |
		awk '{s += $1} END {print s + 0}'
}
# What the stored answers take once no write is in flight: a worker stores
# an answer after it has sent it, and a directory read while files come
# and go is no snapshot (one removed and another written after find went
# by both add up): two equal readings a tenth of a second apart, with no
# temporary file between them.
settled_size() {
	local last=-1 now
	for _ in $(seq 1 50); do
		if [ -z "$(find "$FT/bounded-cache" -name '*.tmp-*' 2>/dev/null)" ]; then
			now=$(answers_size)
			[ "$now" = "$last" ] && break
			last=$now
		fi
		sleep 0.1
	done
	echo "$last"
}
largest=0
for batch in 1 2 3 4 5 6; do
	seq 1 100 | xargs -P 4 -I{} curl -s -o /dev/null \
		"http://127.0.0.1:$PORT/api/collections/blog/entries?junk=$batch-{}"
	size=$(settled_size)
	[ "$size" -gt "$largest" ] && largest=$size
done
if [ "$largest" -gt 0 ] && [ "$largest" -le 1048576 ]; then pass; else
	fail "faults: max_size = 1 (MiB) held after every 100 answers" "largest: $largest bytes"; fi
stop_server

# --- 5. the site unreadable, moved away, then back --------------------------
ini=$(fault_ini unreadable "$FT/cache" </dev/null)
start_server "$ini" /api
team_title Orchestra
until_answer "faults: the workers have caught up with the site" /api/collections/team \
	'*"title":"Orchestra"*'
request GET /api/collections
good=$BODY
case "$good" in *'"handle":"team"'*) pass ;; *) fail "faults: collections before" "$good" ;; esac
wait_for_log() { # PATTERN: up to 5 s for the worker log to match
	for _ in $(seq 1 50); do
		[ "$(log_count "$1")" -ge 1 ] && return 0
		request GET /api/collections
		sleep 0.1
	done
	return 1
}
: >"$FLOG"
chmod 000 "$FT/site"
if wait_for_log 'cannot be read whole'; then pass; else
	fail "faults: an unreadable site is logged" "$(cat "$FLOG")"; fi
expect "faults: an unreadable site: the last good index answers" GET /api/collections 200 "$good"
chmod 755 "$FT/site"
team_title Ensemble
until_answer "faults: the site readable again: edits show" /api/collections/team '*"title":"Ensemble"*'
: >"$FLOG"
chmod 000 "$FT/site/content/collections/blog"
if wait_for_log 'content/collections/blog: cannot be read: Permission denied'; then pass; else
	fail "faults: an unreadable collection folder is logged" "$(cat "$FLOG")"; fi
request GET '/api/collections/blog/entries?fields=title'
case "$BODY" in
'{"data":[{"title":"Hello World"},{"title":"Launch"},'*) pass ;;
*) fail "faults: an unreadable collection folder: its entries are still served" "$BODY" ;;
esac
chmod 755 "$FT/site/content/collections/blog"
: >"$FLOG"
mv "$FT/site" "$FT/site.away"
if wait_for_log "$FT/site: cannot be read: No such file or directory"; then pass; else
	fail "faults: a site moved away is logged" "$(cat "$FLOG")"; fi
expect "faults: a site moved away: the last good index answers" GET /api/collections/team 200 \
	"{\"data\":{\"handle\":\"team\",\"title\":\"Ensemble\",\"structure\":{\"max_depth\":1,\"expects_root\":false},\"mount\":null,\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/collections\/team\"}}"
mv "$FT/site.away" "$FT/site"
team_title Company
until_answer "faults: the site back in place: edits show" /api/collections/team '*"title":"Company"*'
stop_server

# --- 6. broken YAML -----------------------------------------------------------
ini=$(fault_ini broken "$FT/cache" </dev/null)
start_server "$ini" /api
LAUNCH=/api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000003?fields=title
expect "faults: before the entry breaks" GET "$LAUNCH" 200 '{"data":{"title":"Launch"}}'
: >"$FLOG"
launch="$FT/site/content/collections/blog/en/2024-02-01-1430.launch.md"
cp "$launch" "$FT/launch.good"
printf -- '---\ntitle: [unclosed\n---\n' >"$launch"
if wait_for_log 'launch.md:[0-9]+: .*its last good version is served'; then pass; else
	fail "faults: a broken entry is logged with its line" "$(cat "$FLOG")"; fi
expect "faults: a broken entry: its last good version answers" GET "$LAUNCH" 200 '{"data":{"title":"Launch"}}'
printf 'title: [Broken\n' >"$FT/site/content/collections/team.yaml"
until_answer "faults: a broken collection file: the collection stays" /api/collections/team \
	'*"title":"Company"*'
printf -- '---\nid: new-broken\ntitle: [unclosed\n---\n' >"$FT/site/content/collections/blog/en/2024-05-01.fresh.md"
printf 'title: Pages\n' >"$FT/site/content/collections/pages-extra.yaml"
until_answer "faults: a later change is seen" /api/collections/pages-extra '*"title":"Pages"*'
expect "faults: a new broken file is left out" GET /api/collections/blog/entries/new-broken 404 \
	'{"message":"Not found."}'
n=$(log_count 'launch.md:[0-9]+:')
if [ "$n" = 1 ]; then pass; else fail "faults: a broken file is logged once per change" "$n lines"; fi
mv "$FT/launch.good" "$launch"
rm -f "$FT/site/content/collections/blog/en/2024-05-01.fresh.md" "$FT/site/content/collections/pages-extra.yaml"
team_title Team
until_answer "faults: fixed files are read again" /api/collections/team '*"title":"Team"*'
stop_server

# --- 7. messages that reach the log -------------------------------------------
# A worker that cannot start says why where the INI says, not only on a
# stderr that lighttpd throws away.
ini=$(fault_ini norooot "$FT/cache" </dev/null)
sed -i "s#^root = .*#root = $FT/nowhere#" "$ini"
: >"$FLOG"
out=$(env GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET REQUEST_URI=/api/ping \
	CMS_API_CONFIG="$ini" "$CMS_API_BIN" </dev/null 2>/dev/null)
rc=$?
if [ "$rc" = 2 ] && grep -q "cannot start: .*\[content\] root: $FT/nowhere" "$FLOG"; then pass; else
	fail "faults: a worker that cannot start logs why" "exit $rc; log: $(cat "$FLOG")"; fi

# --- 8. SIGHUP: logrotate's signal reopens the log and ends nothing ---------
ini=$(fault_ini hup "$FT/cache" </dev/null)
: >"$FLOG"
start_server "$ini" /api
request GET /api/ping
before=$(worker_pids)
mv "$FLOG" "$FLOG.1"
(for _ in $(seq 1 150); do
	curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$PORT/api/collections/blog/entries"
done) >"$FT/codes" &
client=$!
for _ in $(seq 1 60); do
	for pid in $before; do kill -HUP "$pid" 2>/dev/null; done
	sleep 0.02
done
wait "$client"
codes=$(sort "$FT/codes" | uniq -c | tr -s ' ')
if [ "$codes" = " 150 200" ]; then pass; else
	fail "faults: SIGHUP during requests: every answer a 200" "$codes"; fi
after=$(worker_pids)
[ "$before" = "$after" ] && pass || fail "faults: SIGHUP ends no process" "$before -> $after"
request GET /api/ping
if grep -q 'log reopened (SIGHUP)' "$FLOG" 2>/dev/null; then pass; else
	fail "faults: SIGHUP reopens the log file" "$(ls -la "$FT")"; fi
stop_server
run_workers_as_tester
