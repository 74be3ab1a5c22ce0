# The static fast path ([cache] public_dir, src/fastpath.h) through each
# web server's own snippet as shipped (etc/*fastpath*; servers.sh): a
# first request goes through FastCGI and is published, a repeat is
# answered by the web server itself (the worker's access log never sees
# it), a change to the site makes the published files unreachable at
# once, and what cannot or must not be published always reaches cms-api.
# One worker, so that its access log is in the order of the requests.

FP_SITE="$T/fastpath-site"
cp -r "$FIXTURES/site" "$FP_SITE"
FP_PUBLIC="$T/fastpath-public"
FP_ACCESS="$T/fastpath-access.log"
FP_BASE='http:\/\/cms.example\/api'
fp_ini=$(SITE="$FP_SITE" CACHE="$T/fastpath-cache" site_ini fastpath <<INI
[api]
enabled = true
base_url = http://cms.example
[cache]
public_dir = $FP_PUBLIC
[log]
access = $FP_ACCESS
[resources]
collections = true
[resources.collections.blog]
allowed_filters = title
INI
)

FASTPATH_DIR=$FP_PUBLIC
WORKER_PROCS=1
start_server "$fp_ini" /api
FASTPATH_DIR=
WORKER_PROCS=

# The checks of lib.sh, on this test's worker (its access log, prefix /api)
# and public_dir.
fp_seen() { access_seen "$FP_ACCESS" GET "$1"; }
fp_sync() { access_sync "$FP_ACCESS" ""; }
fp_file() { published_file "$FP_PUBLIC" "$1"; }
# fp_await_file NAME URI: URI's file holds the last answer (within 5 s).
fp_await_file() { expect_published "$1" "$FP_PUBLIC" "$2"; }
# fp_expect_static NAME URI: a repeat of URI is answered by the web server.
fp_expect_static() { expect_static "$1" "$FP_ACCESS" "" "$2"; }
# fp_expect_dynamic NAME URI STATUS: twice, both answered by the worker,
# and nothing published for it.
fp_expect_dynamic() {
	local name=$1 uri=$2 status=$3 before first
	before=$(fp_seen "$uri")
	request GET "$uri"
	first=$BODY
	[ "$STATUS" = "$status" ] && pass || fail "$name: the first answer" "$STATUS $BODY"
	request GET "$uri"
	[ "$STATUS" = "$status" ] && [ "$BODY" = "$first" ] && pass ||
		fail "$name: the repeat" "$STATUS $BODY"
	fp_sync
	[ "$(fp_seen "$uri")" = "$((before + 2))" ] && pass ||
		fail "$name: both reached the worker" "seen $(fp_seen "$uri") times, $before before"
	local leaked
	leaked=$(find -L "$FP_PUBLIC/current/" -name "*$(basename "${uri%%\?*}")@*" 2>/dev/null)
	case $uri in
	*\?*) leaked=$(printf '%s\n' "$leaked" | grep -F "@${uri#*\?}.json") ;;
	*) leaked=$(printf '%s\n' "$leaked" | grep -F "$(basename "$uri")@.json") ;;
	esac
	[ -z "$leaked" ] && pass || fail "$name: published" "$leaked"
}

# The watcher makes public_dir/current for the cache generation in force;
# the first worker starts it (mod_fcgid starts one at the first request).
# A first worker and its new watcher may both write a first generation:
# the watcher follows the last one within a second.
request GET /api/ping
fp_current_ok() {
	local gen
	gen=$(gen_cache_signature "$(ls "$T"/fastpath-cache/generation-* 2>/dev/null | head -1)")
	[ -n "$gen" ] && case $(readlink "$FP_PUBLIC/current") in "g$gen-"*) true ;; *) false ;; esac
}
for _ in $(seq 1 50); do
	fp_current_ok && break
	sleep 0.1
done
fp_current_ok && pass || fail "fastpath: the watcher made $FP_PUBLIC/current" "$(ls -la "$FP_PUBLIC" 2>&1)"

# A list page: the first request through FastCGI, published byte for byte.
L='/api/collections/blog/entries?limit=2&fields=title'
expect "fastpath: a first request" GET "$L" 200 \
	"{\"data\":[{\"title\":\"Hello World\"},{\"title\":\"Launch\"}],\"links\":{\"first\":\"$FP_BASE\/collections\/blog\/entries?limit=2&fields=title&page=1\",\"last\":\"$FP_BASE\/collections\/blog\/entries?limit=2&fields=title&page=2\",\"prev\":null,\"next\":\"$FP_BASE\/collections\/blog\/entries?limit=2&fields=title&page=2\"},\"meta\":{\"current_page\":1,\"from\":1,\"last_page\":2,\"links\":[{\"url\":null,\"label\":\"&laquo; Previous\",\"page\":null,\"active\":false},{\"url\":\"$FP_BASE\/collections\/blog\/entries?limit=2&fields=title&page=1\",\"label\":\"1\",\"page\":1,\"active\":true},{\"url\":\"$FP_BASE\/collections\/blog\/entries?limit=2&fields=title&page=2\",\"label\":\"2\",\"page\":2,\"active\":false},{\"url\":\"$FP_BASE\/collections\/blog\/entries?limit=2&fields=title&page=2\",\"label\":\"Next &raquo;\",\"page\":2,\"active\":false}],\"path\":\"$FP_BASE\/collections\/blog\/entries\",\"per_page\":2,\"to\":2,\"total\":4}}"
fp_await_file "fastpath: the first answer is published" "$L"
[ "$(fp_seen "$L")" = 1 ] && pass || fail "fastpath: the first request reached the worker" "$(fp_seen "$L")"
fp_expect_static "fastpath: a published list page" "$L"
# HEAD of a published answer: the web server's, headers only.
request HEAD "$L"
[ "$STATUS" = 200 ] && [ -z "$BODY" ] && pass || fail "fastpath: HEAD of a published answer" "$STATUS $BODY"
expect_header "fastpath: HEAD's type" 'Content-Type: application/json'
expect_header "fastpath: HEAD's length" "Content-Length: $(stat -c %s "$(fp_file "$L")")"
fp_sync
[ "$(grep -cF ": access: HEAD $L " "$FP_ACCESS")" = 0 ] && pass ||
	fail "fastpath: HEAD of a published answer reached the worker"

# A path that is the prefix of another, and a trailing slash: each a
# name of its own.
for uri in /api/collections /api/collections/blog /api/collections/ \
	'/api/collections/blog/entries?filter[title:contains]=o&fields=id,title&sort=-date'; do
	request GET "$uri"
	[ "$STATUS" = 200 ] && pass || fail "fastpath: GET $uri" "$STATUS $BODY"
	fp_await_file "fastpath: $uri is published" "$uri"
	fp_expect_static "fastpath: $uri" "$uri"
done
# Percent-encoded brackets: the query is the file's name byte for byte.
E='/api/collections/blog/entries?filter%5Btitle%3Acontains%5D=o&fields=title'
expect "fastpath: an encoded query" GET "$E" 200 \
	'{"data":[{"title":"Hello World"},{"title":"No id"}],"links":{"first":"http:\/\/cms.example\/api\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=25&page=1","last":"http:\/\/cms.example\/api\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=25&page=1","prev":null,"next":null},"meta":{"current_page":1,"from":1,"last_page":1,"links":[{"url":null,"label":"&laquo; Previous","page":null,"active":false},{"url":"http:\/\/cms.example\/api\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=25&page=1","label":"1","page":1,"active":true},{"url":null,"label":"Next &raquo;","page":null,"active":false}],"path":"http:\/\/cms.example\/api\/collections\/blog\/entries","per_page":25,"to":2,"total":2}}'
fp_await_file "fastpath: an encoded query is published" "$E"
fp_expect_static "fastpath: an encoded query" "$E"

# Never published, always answered by cms-api: a 404, a 422, queries that
# cannot be a safe file name, a dot segment, a HEAD that was never a GET.
fp_expect_dynamic "fastpath: a 404" /api/collections/nope 404
fp_expect_dynamic "fastpath: a 422" '/api/collections/blog/entries?filter[slug]=x' 422
fp_expect_dynamic "fastpath: '..' in the query" '/api/collections/blog/entries?limit=1&q=a..b' 200
fp_expect_dynamic "fastpath: '/' in the query" '/api/collections/blog/entries?limit=1&q=a/b' 200
fp_expect_dynamic "fastpath: a byte outside the safe set" '/api/collections/blog/entries?limit=1&q=a*b' 200
fp_expect_dynamic "fastpath: a broken escape" '/api/collections/blog/entries?limit=1&q=%zz' 200
fp_expect_dynamic "fastpath: a long query" \
	"/api/collections/blog/entries?limit=1&q=$(printf 'x%.0s' $(seq 1 250))" 200
request GET '/api/collections/../collections' --path-as-is
fp_sync
[ "$(fp_seen '/api/collections/../collections')" = 1 ] && pass ||
	fail "fastpath: a dot segment reaches the worker" "$(fp_seen '/api/collections/../collections')"
request HEAD '/api/collections/blog/entries?limit=3'
fp_sync
[ ! -e "$(fp_file '/api/collections/blog/entries?limit=3')" ] && pass ||
	fail "fastpath: a HEAD is not published"

# An edit: the published answers are out of reach at once (the watcher
# swaps the link), the next answer is fresh, and is published anew.
ONE='/api/collections/blog/entries/hello-world?fields=title'
expect "fastpath: an entry" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
fp_await_file "fastpath: the entry is published" "$ONE"
fp_expect_static "fastpath: the entry" "$ONE"
entry="$FP_SITE/content/collections/blog/en/2024-01-10.hello-world.md"
sed -i "s/^title: 'Hello World'/title: 'Hello Edited'/" "$entry"
until_answer "fastpath: an edit shows within a second" "$ONE" '{"data":{"title":"Hello Edited"}}' 1
[ ! -e "$(fp_file "$L")" ] && pass || fail "fastpath: an edit leaves $L published"
expect "fastpath: the fresh answer" GET "$ONE" 200 '{"data":{"title":"Hello Edited"}}'
fp_await_file "fastpath: the fresh answer is published" "$ONE"
fp_expect_static "fastpath: the fresh answer" "$ONE"
# The watcher removed the older generations' directories.
n=$(find "$FP_PUBLIC" -mindepth 1 -maxdepth 1 -name 'g*' | wc -l)
for _ in $(seq 1 20); do
	[ "$n" = 1 ] && break
	sleep 0.1
	n=$(find "$FP_PUBLIC" -mindepth 1 -maxdepth 1 -name 'g*' | wc -l)
done
[ "$n" = 1 ] && pass || fail "fastpath: one generation directory left" "$(ls "$FP_PUBLIC")"
sed -i "s/^title: 'Hello Edited'/title: 'Hello World'/" "$entry"
until_answer "fastpath: the edit undone" "$ONE" '{"data":{"title":"Hello World"}}' 5

# A token-protected API cannot have a static fast path: cms-api check
# says so, on public_dir's line.
if once_for_all_servers; then
	tok_ini=$(write_ini fastpath-token <<INI
[api]
enabled = true
auth_token = s3cret
base_url = http://cms.example
[content]
root = $FP_SITE
[cache]
dir = $T/fastpath-cache
public_dir = $FP_PUBLIC
INI
)
	expect_cmd "fastpath: check refuses a token with public_dir" 2 \
		"$tok_ini:9: [cache] public_dir: the web server would hand published answers to anyone, and [api] auth_token asks for a token: a token-protected API cannot have a static fast path" \
		"$CMS_API_BIN" -c "$tok_ini" check
fi
stop_server
# The workers stopped, and with them the watcher: nobody would notice a
# change now, so the watcher withdrew the published answers on its way
# out (the web server may go on serving, mod_fcgid may stop idle workers).
for _ in $(seq 1 30); do
	[ -L "$FP_PUBLIC/current" ] || break
	sleep 0.1
done
[ ! -L "$FP_PUBLIC/current" ] && pass ||
	fail "fastpath: the watcher stopped, $FP_PUBLIC/current is still there" "$(ls -la "$FP_PUBLIC")"
