# The INI is followed (issue 19, 6): a changed configuration file is taken
# up by the running workers, with no restart, through each server, the
# workers not root. A worker on its own executes itself again between
# requests (its pid and socket kept); a pool's supervisor reloads as on
# SIGHUP; the watcher ends and its owner starts one that reads the new
# file. A broken file is logged once, and the one in use kept.

RL="$T/reload"
RL_INI="$T/reload.ini"
RL_LOG="$RL/worker.log"
mkdir -p "$RL"
cp -r "$FIXTURES/site" "$RL/site"
run_workers_unprivileged "$RL"

# rl_ini TAXONOMIES: the config, taxonomies on or off, put in place in one
# rename (a worker never reads half of it).
rl_ini() {
	SITE="$RL/site" CACHE="$RL/cache" WORKER_LOG="$RL_LOG" site_ini reload-next >/dev/null <<INI
[log]
level = info
[api]
enabled = true
[resources]
collections = true
taxonomies = $1
INI
	worker_owns "$T/reload-next.ini"
	mv "$T/reload-next.ini" "$RL_INI"
}

# rl_log_count TEXT: the lines of the worker log holding TEXT.
rl_log_count() { grep -cF -- "$1" "$RL_LOG" 2>/dev/null; }

rl_ini false
start_server "$RL_INI" /api
expect "reload: taxonomies off" GET /api/taxonomies 404 '{"message":"Not found."}'
expect_watchers "reload: a watcher runs" 1

# rl_watcher: the pid of this build's watcher.
rl_watcher() {
	local pid bin
	bin=$(realpath "$CMS_API_BIN")
	for pid in $(pgrep -x cms-api-watch); do
		[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$bin" ] && echo "$pid"
	done
}
# Killed outright, with no request to follow: a worker starts another
# between requests (a pool's supervisor, at once).
rl_w1=$(rl_watcher)
[ -n "$rl_w1" ] && kill -9 $rl_w1
await_other "reload: a killed watcher is replaced with no request made" "$rl_w1" rl_watcher
rl_ini true
until_answer "reload: a changed INI is taken up by the running workers" /api/taxonomies '{"data":[*' 10
# A worker on its own says so as it starts again; a pool's supervisor as
# it reloads.
if [ "$(rl_log_count "configuration $RL_INI changed: reloaded")" -ge 1 ] ||
	[ "$(rl_log_count "configuration changed: $RL_INI read again")" -ge 1 ]; then
	pass
else
	fail "reload: the reload is logged" "$(tail -n 20 "$RL_LOG")"
fi
for _ in $(seq 1 50); do
	[ "$(rl_log_count "configuration $RL_INI changed: this watcher ends, for one that reads it")" -ge 1 ] && break
	sleep 0.1
done
[ "$(rl_log_count "configuration $RL_INI changed: this watcher ends")" -ge 1 ] && pass ||
	fail "reload: the watcher ends for one with the new INI" "$(grep -i watch "$RL_LOG")"
request GET /api/ping
expect_watchers "reload: one watcher again, with the new INI" 1

# Broken: logged once by each process that looked, the config in use kept.
printf '[nope]\n' >>"$RL_INI"
rl_line=$(wc -l <"$RL_INI")
rl_error="configuration $RL_INI changed: $RL_INI:$rl_line: unknown section [nope]"
for _ in $(seq 1 50); do
	request GET /api/ping
	[ "$(rl_log_count "$rl_error")" -ge 1 ] && break
	sleep 0.1
done
[ "$(rl_log_count "$rl_error")" -ge 1 ] && pass ||
	fail "reload: a broken INI is logged" "$(tail -n 20 "$RL_LOG")"
expect "reload: the config in use is kept" GET /api/taxonomies/tags 200 \
	"{\"data\":{\"handle\":\"tags\",\"title\":\"Tags\",\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/taxonomies\/tags\"}}"
# Every worker has looked by now (each looks before each request, and
# once a second when idle); none says it again.
sleep 2.5
rl_said=$(rl_log_count "$rl_error")
for _ in $(seq 1 20); do request GET /api/taxonomies; done
sleep 2.5
[ "$(rl_log_count "$rl_error")" = "$rl_said" ] && pass ||
	fail "reload: a broken INI is logged once" "$rl_said, then $(rl_log_count "$rl_error")"
# Mended, then taxonomies off again: taken up. (Mended first: the answers
# are checked against the document of the INI as it is, or as it was just
# before, lib.sh's record_answer, and the broken one has none.)
rl_ini true
expect "reload: mended" GET /api/taxonomies/tags 200 \
	"{\"data\":{\"handle\":\"tags\",\"title\":\"Tags\",\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/taxonomies\/tags\"}}"
rl_ini false
until_answer "reload: the mended INI is taken up" /api/taxonomies '{"message":"Not found."}' 10
stop_server
wait_workers_gone
run_workers_as_tester
