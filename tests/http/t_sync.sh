# The sync feed (GET /api/sync) through the web server, its journal kept
# by the watcher: every item, page by page; what changed and what was
# deleted since a token (an edit, a deletion, a new term, a renamed
# file); nothing since the newest token; 410 for a token older than
# [sync] generations or from before a change of the whole site; 400 for
# what is not a token. Once, whatever the server: the feed is the
# worker's. JSON is read with python3 (scripts/install-deps).

sy_skip=
once_for_all_servers || sy_skip=yes
if [ -z "$sy_skip" ] && ! needs_commands t_sync "scripts/install-deps installs it" python3; then
	sy_skip=yes
fi

if [ -z "$sy_skip" ]; then
SY="$T/sync"
mkdir -p "$SY"
cp -r "$FIXTURES/site" "$SY/site"
SITE="$SY/site" CACHE="$SY/cache" site_ini sync >/dev/null <<INI
[api]
enabled = true
base_url = http://cms.example
[resources]
collections = true
taxonomies = true
globals = true
navs = true
assets = true
sync = true
[sync]
generations = 4
INI
start_server "$T/sync.ini"

# sy_json EXPR: EXPR (python, over the last body as d) printed.
sy_json() { printf '%s' "$BODY" | python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
# sy_items: the last body's "type:id" of data, then "-type:id" of deleted,
# one a line, sorted.
sy_items() {
	sy_json "'\\n'.join(sorted([x['type']+':'+x['id'] for x in d['data']] + ['-'+x['type']+':'+x['id'] for x in d['deleted']]))"
}
# sy_expect NAME PATH ITEMS: GET PATH is a 200 whose items are ITEMS.
sy_expect() {
	request GET "$2"
	local got
	got=$(sy_items 2>&1)
	if [ "$STATUS" = 200 ] && [ "$got" = "$3" ]; then pass; else
		fail "t_sync: $1" "expected: $3" "got: $STATUS $got ${BODY:0:200}"
	fi
}
# sy_until_moved TOKEN: up to 5 s for the feed to have news since TOKEN.
sy_until_moved() {
	for _ in $(seq 1 50); do
		request GET "/api/sync?sync_token=$1"
		[ "$STATUS" = 200 ] && [ "$(sy_json "len(d['data']) + len(d['deleted'])")" != 0 ] && return
		sleep 0.1
	done
}

request GET /api/sync?limit=1000
SY_ALL=$(sy_items)
SY_T0=$(sy_json "d['next_sync_token']")
[ "$(printf '%s\n' "$SY_ALL" | wc -l)" = 17 ] && [ "${#SY_T0}" = 16 ] && pass ||
	fail "t_sync: every item, and a token" "$SY_ALL" "token: $SY_T0"
expect_header "t_sync: JSON" 'Content-Type: application/json'

# Page by page (2 a page, links.next), the same items, and the last page's
# token is the first page's generation.
sy_paged=
sy_next=/api/sync?limit=2
sy_pages=0
while [ -n "$sy_next" ] && [ "$sy_pages" -lt 20 ]; do
	request GET "$sy_next"
	sy_paged="$sy_paged$(sy_json "'\\n'.join([x['type']+':'+x['id'] for x in d['data']])")
"
	sy_last_token=$(sy_json "d['next_sync_token']")
	sy_next=$(sy_json "d['links']['next'] or ''" | sed 's#^http://cms.example##')
	sy_pages=$((sy_pages + 1))
done
[ "$(printf '%s' "$sy_paged" | sort)" = "$SY_ALL" ] && [ "$sy_pages" = 9 ] &&
	[ "$sy_last_token" = "$SY_T0" ] && pass ||
	fail "t_sync: page by page" "pages: $sy_pages, token: $sy_last_token" "$sy_paged"

sy_expect "nothing since the newest token" "/api/sync?sync_token=$SY_T0" ""

# An edit, a deletion, a new term, a renamed file (its id kept), at once.
blog="$SY/site/content/collections/blog/en"
sed -i 's/^title: Undated$/title: Dated at last/' "$blog/undated.md"
rm "$blog/2099-01-01.far-future.md"
printf 'title: Fresh\n' >"$SY/site/content/taxonomies/tags/fresh.yaml"
mv "$SY/site/content/collections/docs/en/intro.md" "$SY/site/content/collections/docs/en/introduction.md"
sy_until_moved "$SY_T0"
sleep 0.3 # a change seen in two passes of the watcher: both recorded
sy_expect "what changed and was deleted since a token" "/api/sync?sync_token=$SY_T0" \
"-entry:1f2e3d4c-0000-4000-8000-000000000004
entry:1f2e3d4c-0000-4000-8000-000000000005
entry:docs-intro
term:tags::fresh"
case "$BODY" in *'"title":"Dated at last"'*) pass ;; *) fail "t_sync: a changed item as it is now" "${BODY:0:300}" ;; esac
SY_T1=$(sy_json "d['next_sync_token']")
[ "$SY_T1" != "$SY_T0" ] && pass || fail "t_sync: a new token after a change" "$SY_T1"
sy_expect "nothing since the newest token, again" "/api/sync?sync_token=$SY_T1" ""

# Four more generations: T0 is past [sync] generations = 4.
for i in 1 2 3 4; do
	sed -i "s/^title: .*/title: Round $i/" "$blog/undated.md"
	request GET /api/sync
	sy_t=$(sy_json "d['next_sync_token']")
	sy_until_moved "$sy_t"
done
sleep 0.3
request GET "/api/sync?sync_token=$SY_T0"
if [ "$STATUS" = 410 ] && [ "$BODY" = '{"message":"This sync token can no longer be answered (too old, from before a change of the whole site, or not one of this site'"'"'s): start again with GET \/sync."}' ]; then
	pass
else
	fail "t_sync: a token past [sync] generations is 410" "$STATUS $BODY"
fi
expect_header "t_sync: 410 is JSON" 'Content-Type: application/json'
request GET /api/sync
sy_t=$(sy_json "d['next_sync_token']")
# A change of the whole site: a token from before it is 410.
mkdir -p "$SY/site/resources/blueprints/collections/docs"
printf 'title: Doc\n' >"$SY/site/resources/blueprints/collections/docs/doc.yaml"
for _ in $(seq 1 50); do
	request GET "/api/sync?sync_token=$sy_t"
	[ "$STATUS" = 410 ] && break
	sleep 0.1
done
[ "$STATUS" = 410 ] && pass || fail "t_sync: a token from before a blueprint is 410" "$STATUS $BODY"
expect "t_sync: not a token" GET '/api/sync?sync_token=nope' 400 \
	'{"message":"sync_token: not a sync token: nope"}'
expect "t_sync: not a position" GET '/api/sync?after=nope' 400 \
	'{"message":"after: not a position in the sync feed: nope"}'
stop_server
fi
