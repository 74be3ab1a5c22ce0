# The index is shared through the cache directory and follows changes to
# the site's files without a restart, through the web server.

WSITE="$T/watched-site"
cp -r "$FIXTURES/site" "$WSITE"
WCACHE="$T/watch-cache"
ini=$(SITE="$WSITE" CACHE="$WCACHE" site_ini watched <<INI
[api]
enabled = true
[resources]
collections = true
INI
)
start_server "$ini" /api
U="http:\/\/127.0.0.1:$PORT"
expect "watch: before" GET /api/collections/team 200 \
	"{\"data\":{\"handle\":\"team\",\"title\":\"Team\",\"structure\":{\"max_depth\":1,\"expects_root\":false},\"mount\":null,\"api_url\":\"$U\/api\/collections\/team\"}}"
if ls "$WCACHE"/index-*.snap >/dev/null 2>&1; then pass; else fail "watch: no shared snapshot" "$(ls "$WCACHE")"; fi

# wait_for NAME PATH PATTERN: polls for up to 5 seconds until the body
# matches PATTERN (a glob).
wait_for() {
	local name=$1 path=$2 pattern=$3
	for _ in $(seq 1 50); do
		request GET "$path"
		# shellcheck disable=SC2254
		case "$BODY" in $pattern) pass; return ;; esac
		sleep 0.1
	done
	fail "$name" "last answer: $STATUS $BODY"
}

printf 'title: Crew\nstructure:\n  max_depth: 1\n' >"$WSITE/content/collections/team.yaml"
wait_for "watch: an edited collection" /api/collections/team '*"title":"Crew"*'
printf 'title: News\n' >"$WSITE/content/collections/news.yaml"
wait_for "watch: an added collection" /api/collections/news '{"data":{"handle":"news","title":"News",*'
rm "$WSITE/content/collections/news.yaml"
wait_for "watch: a removed collection" /api/collections/news '{"message":"Not found."}'
# A dot file is not content: no new generation.
# Polls up to 3 s for the generation file to move past $gen_before;
# leaves the last value read in $gen_after.
wait_for_generation_bump() {
	for _ in $(seq 1 30); do
		gen_after=$(gen_index "$WCACHE"/generation-*)
		[ "$gen_before" != "$gen_after" ] && return 0
		sleep 0.1
	done
}

gen_before=$(gen_index "$WCACHE"/generation-*)
touch "$WSITE/content/collections/.team.yaml.swp"
sleep 1.2
gen_after=$(gen_index "$WCACHE"/generation-*)
[ "$gen_before" = "$gen_after" ] && pass || fail "watch: a dot file bumped the generation" "$gen_before -> $gen_after"
# One snapshot left: a worker removes the older ones once it has saved
# its own (polled: under load a build may still be saving).
for _ in $(seq 1 30); do
	[ "$(ls "$WCACHE"/index-*.snap 2>/dev/null | wc -l)" = 1 ] && break
	sleep 0.1
done
ls "$WCACHE"/index-*.snap | wc -l | grep -qx 1 && pass || fail "watch: old snapshots kept" "$(ls "$WCACHE")"
# An asset file and its .meta data live outside content/: AssetSaved.
gen_before=$(gen_index "$WCACHE"/generation-*)
echo "new" >"$WSITE/public/assets/new.txt"
wait_for_generation_bump
[ "$gen_before" != "$gen_after" ] && pass || fail "watch: an asset file was not noticed" "$gen_before"
gen_before=$gen_after
printf 'data:\n  alt: New\n' >"$WSITE/public/assets/img/.meta/dot.gif.yaml"
wait_for_generation_bump
[ "$gen_before" != "$gen_after" ] && pass || fail "watch: asset .meta data was not noticed" "$gen_before"
# A folder swapped for a fresh copy of the same name (a deploy tool's
# rename): inotify names the folder, not its files, whose paths are those
# the last publication took as they were (settled: the blog's files were
# copied seconds ago). Every file is looked at again, the edited one read.
cp -r "$WSITE/content/collections/blog" "$T/blog.new"
sed -i "s/^title: 'Hello World'/title: 'Hello Swapped'/" "$T/blog.new/en/2024-01-10.hello-world.md"
mv "$WSITE/content/collections/blog" "$T/blog.old"
mv "$T/blog.new" "$WSITE/content/collections/blog"
wait_for "watch: a folder swapped for a copy of the same name" \
	"/api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000001?fields=title" \
	'*"Hello Swapped"*'
stop_server

# Changes made while nothing ran are found by the scan when a watcher
# starts (the old one may take a moment to end with its worker).
printf 'title: Staff\nstructure:\n  max_depth: 1\n' >"$WSITE/content/collections/team.yaml"
start_server "$ini" /api
wait_for "watch: a change made while stopped" /api/collections/team '*"title":"Staff"*'
stop_server

# cms-api warm builds the shared snapshot ahead of the workers.
out=$("$CMS_API_BIN" -c "$ini" warm)
case "$out" in
"ok: $WSITE: "*" sites, "*" collections, 11 entries; index generation "*", "*" MiB, in $WCACHE/index-"*".snap, "*" in "*" s") pass ;;
*) fail "warm" "$out" ;;
esac
