# An edit is seen whole, at once, and never un-seen (issue 19), through
# the web server, with four workers that file permissions hold for:
# several writers edit entries in place (truncate, write half, pause,
# write the rest) and by renames while several checkers ask for them
# (tests/http/change-load.c). Not one answer may be torn (a title of one
# version, a body of another, a body cut short, a 404), and once an
# answer showed a version of an entry, no request that starts after it
# may show an older one, whichever worker takes it. Then again with the
# static fast path, whose published answers must follow the same order.

CH="$T/change"
mkdir -p "$CH/site/content/collections/load" "$CH/public"
printf 'title: Load\n' >"$CH/site/content/collections/load.yaml"
run_workers_unprivileged "$CH"

# change_run NAME INI: serves INI with the entries at their first version,
# waits for them, runs the load.
change_run() {
	local name=$1 ini=$2 out k
	for k in $(seq 0 29); do "$CHANGE_LOAD" --write "$CH/site/content/collections/load" "$k" 1; done
	worker_owns "$CH/site"
	WORKER_PROCS=4
	start_server "$ini" /api
	WORKER_PROCS=
	until_answer "change: $name: the entries are served" /api/collections/load/entries/load-29 \
		'*"title":"v1 load-29"*' 10
	# Pass: the answers showed edits (most of them), none torn, none older
	# than one seen before it.
	if out=$("$CHANGE_LOAD" "$PORT" "$CH/site/content/collections/load" load 30 6 3 3 2>&1); then
		pass
	else
		fail "change: $name: writers and checkers: edits seen, nothing torn, nothing un-seen" \
			"$(printf '%s\n' "$out" | tail -n 12)"
	fi
	stop_server
	wait_workers_gone
}

ini=$(SITE="$CH/site" CACHE="$CH/cache" WORKER_LOG="$CH/worker.log" site_ini change <<INI
[api]
enabled = true
[resources]
collections = true
INI
)
worker_owns "$ini"
change_run "answers" "$ini"

ini=$(SITE="$CH/site" CACHE="$CH/cache-fp" WORKER_LOG="$CH/worker.log" site_ini change-fp <<INI
[api]
enabled = true
base_url = http://127.0.0.1
[cache]
public_dir = $CH/public
[resources]
collections = true
INI
)
worker_owns "$ini"
FASTPATH_DIR=$CH/public
change_run "the static fast path" "$ini"
FASTPATH_DIR=
run_workers_as_tester
