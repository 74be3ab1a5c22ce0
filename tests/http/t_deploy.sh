# Deploys by symlink swap (issue 19, 4): the content root is a link that a
# deploy moves to a new release (ln -s, then mv -T over it). The watcher
# watches the folders the link led to, so nothing there moves: it looks
# where the root leads every second, follows a swap and logs it, and the
# answers show the new release. Swapped back, the same.

DP="$T/deploy"
mkdir -p "$DP/releases"
cp -r "$FIXTURES/site" "$DP/releases/a"
cp -r "$FIXTURES/site" "$DP/releases/b"
printf 'title: Crew\nstructure:\n  max_depth: 1\n' >"$DP/releases/b/content/collections/team.yaml"
ln -s releases/a "$DP/current"
ini=$(SITE="$DP/current" CACHE="$DP/cache" WORKER_LOG="$DP/worker.log" site_ini deploy <<INI
[api]
enabled = true
[resources]
collections = true
INI
)
start_server "$ini" /api
until_answer "deploy: release a is served" /api/collections/team '*"title":"Team"*'

# swap_to RELEASE: moves the link in one rename, as deploy tools do.
swap_to() {
	ln -s "releases/$1" "$DP/current.new" && mv -T "$DP/current.new" "$DP/current"
}

swap_to b
until_answer "deploy: a swapped link is followed" /api/collections/team '*"title":"Crew"*'
grep -qF "content root $DP/current now resolves to $DP/releases/b" "$DP/worker.log" && pass ||
	fail "deploy: the swap is logged" "$(cat "$DP/worker.log")"
swap_to a
until_answer "deploy: swapped back" /api/collections/team '*"title":"Team"*'
[ "$(grep -cF "now resolves to $DP/releases/a" "$DP/worker.log")" = 1 ] && pass ||
	fail "deploy: the swap back is logged once" "$(cat "$DP/worker.log")"
stop_server
wait_workers_gone
