# The response cache through the web server (spec §7): what is stored, what a
# hit serves, what invalidates it, and that a hit never crosses a host or
# skips the token.

CSITE="$T/cached-site"
cp -r "$FIXTURES/site" "$CSITE"
CCACHE="$T/cached-cache"
cache_ini() { # NAME, extra INI on stdin
	SITE="$CSITE" CACHE="$CCACHE" site_ini "$1"
}
ini=$(cache_ini cached <<INI
[api]
enabled = true
[resources]
collections = true
[resources.collections.blog]
allowed_filters = title
INI
)
start_server "$ini" /api

# Entries are written after the answer is sent: poll for the count.
stored() { find "$CCACHE" -path '*/responses-*/*' -type f ! -name '*.tmp-*' ! -name '.*' | wc -l; }
expect_stored() { # NAME COUNT
	for _ in $(seq 1 100); do
		[ "$(stored)" -eq "$2" ] && { pass; return; }
		sleep 0.05
	done
	fail "$1" "expected $2 stored answers, found $(stored): $(find "$CCACHE" -path '*/responses-*/*')"
}

ONE='/api/collections/blog/entries/hello-world?fields=title'
expect "cache: a miss is answered" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
expect_stored "cache: a 200 is stored" 1
# A hit serves the stored bytes: change them (same length), write the
# entry's checksum again, and look.
entry=$(grep -l 'Hello World' "$CCACHE"/responses-*/*)
sed -i 's/Hello World/Hello Xorld/' "$entry"
reseal_entry "$entry"
expect "cache: a hit serves the stored answer" GET "$ONE" 200 '{"data":{"title":"Hello Xorld"}}'
expect_header "cache: a hit keeps its content type" 'Content-Type: application/json'
request HEAD "$ONE"
[ "$STATUS" = 200 ] && [ -z "$BODY" ] && pass || fail "cache: HEAD of a hit" "$STATUS $BODY"
expect_header "cache: HEAD of a hit states the length" 'Content-Length: 32'
# Bytes changed without the checksum (a damaged disk, an edit in place at
# the same length): a miss, answered afresh and stored again; never the
# changed bytes.
sed -i 's/Hello Xorld/Hello Yorld/' "$entry"
expect "cache: a changed entry is a miss" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
stored_again() { # NAME PATTERN: the entry matches PATTERN (grep) again
	for _ in $(seq 1 100); do
		grep -q "$2" "$entry" 2>/dev/null && { pass; return; }
		sleep 0.05
	done
	fail "$1" "$(cat "$entry")"
}
stored_again "cache: a changed entry is stored again" 'Hello World'

# A stored 200 edited into a 404 (same length) once went out as a 404
# with the 200's body: a miss too.
sed -i '2s/^\([0-9]*\) 200 /\1 404 /' "$entry"
grep -q '^[0-9]* 404 ' "$entry" && pass || fail "cache: the status was edited" "$(head -n 2 "$entry")"
expect "cache: a status edited into a 404 is a miss" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
stored_again "cache: an edited status is stored again" '^[0-9]* 200 '

# Parameter order does not matter; the first answer is served again.
request GET '/api/collections/blog/entries?limit=1&fields=title'
first=$BODY
expect_stored "cache: a list is stored" 2
expect "cache: parameters in another order hit" GET '/api/collections/blog/entries?fields=title&limit=1' 200 "$first"
expect_stored "cache: parameters in another order are one entry" 2

# 404s are stored; 400 and 422 are not.
expect "cache: a 404" GET /api/collections/nope 404 '{"message":"Not found."}'
expect_stored "cache: a 404 is stored" 3
expect "cache: a 422" GET '/api/collections/blog/entries?filter[slug]=x' 422 '{"message":"Forbidden filter: slug"}'
expect "cache: a 400" GET '/api/collections/blog/entries?limit=0' 400 \
	'{"message":"The limit parameter must be a whole number from 1 to 1000, not \"0\"."}'
sleep 0.3
expect_stored "cache: 400 and 422 are not stored" 3

# Absolute URLs come from the Host header: one host's answer is never
# served to another.
request GET '/api/collections/blog/entries?limit=1&fields=title' -H 'Host: other.example'
case "$BODY" in
*127.0.0.1*) fail "cache: another host got this host's URLs" "$BODY" ;;
*'http:\/\/other.example\/api\/collections\/blog\/entries?'*) pass ;;
*) fail "cache: another host's answer" "$BODY" ;;
esac
expect_stored "cache: each host has its entry" 4

# A change to an entry (EntrySaved) reaches cached answers within a second
# or so, and the old generation's entries are removed.
sed -i "s/^title: 'Hello World'/title: 'Hello Again'/" "$CSITE/content/collections/blog/en/2024-01-10.hello-world.md"
for _ in $(seq 1 50); do
	request GET "$ONE"
	[ "$BODY" = '{"data":{"title":"Hello Again"}}' ] && break
	sleep 0.1
done
[ "$BODY" = '{"data":{"title":"Hello Again"}}' ] && pass || fail "cache: a changed entry was not seen" "$BODY"
expect_stored "cache: the old generation's entries are gone" 1
stop_server

# With EntrySaved ignored, the same change leaves cached answers alone
# while the index (and any answer not cached) moves on. sed -i saves the
# way editors do (a temporary file renamed over the entry): a save, not a
# deletion.
ini=$(cache_ini ignoring <<INI
[api]
enabled = true
[cache]
ignored_events = EntrySaved
[resources]
collections = true
INI
)
start_server "$ini" /api
expect "cache: filled before an ignored change" GET "$ONE" 200 '{"data":{"title":"Hello Again"}}'
expect_stored "cache: filled" 2
index_before=$(gen_index "$CCACHE"/generation-*)
cache_before=$(gen_cache "$CCACHE"/generation-*)
sed -i "s/^title: 'Hello Again'/title: 'Hello Ignored'/" "$CSITE/content/collections/blog/en/2024-01-10.hello-world.md"
for _ in $(seq 1 50); do
	index_after=$(gen_index "$CCACHE"/generation-*)
	[ "$index_before" != "$index_after" ] && break
	sleep 0.1
done
cache_after=$(gen_cache "$CCACHE"/generation-*)
if [ "$index_before" = "$index_after" ]; then
	fail "cache: the change was not noticed" "index $index_before -> $index_after"
elif [ "$cache_before" != "$cache_after" ]; then
	fail "cache: an ignored event bumped the cache generation" "cache $cache_before -> $cache_after"
else
	pass
fi
expect "cache: an ignored event keeps the cached answer" GET "$ONE" 200 '{"data":{"title":"Hello Again"}}'
expect "cache: the index moved on" GET '/api/collections/blog/entries/hello-world?fields=title,slug' 200 \
	'{"data":{"title":"Hello Ignored","slug":"hello-world"}}'
expect_stored "cache: kept across an ignored event" 3
stop_server

# The token is checked before the cache: a stored answer is not served
# to a client without it.
ini=$(cache_ini guarded <<INI
[api]
enabled = true
auth_token = s3cret
[resources]
collections = true
INI
)
start_server "$ini" /api
expect "cache: filled with the token" GET "$ONE" 200 '{"data":{"title":"Hello Ignored"}}' -H 'Authorization: Bearer s3cret'
expect_stored "cache: filled by an authorised request" 4
expect "cache: no token, no cached answer" GET "$ONE" 401 '{"message":"Unauthenticated."}'
stop_server

# driver = none stores nothing.
ini=$(cache_ini uncached <<INI
[api]
enabled = true
[cache]
driver = none
[resources]
collections = true
INI
)
rm -rf "$CCACHE"
start_server "$ini" /api
expect "cache: driver none answers" GET "$ONE" 200 '{"data":{"title":"Hello Ignored"}}'
sleep 0.3
expect_stored "cache: driver none stores nothing" 0
stop_server

# The watcher keeps the answers in bounds: once a minute, and when it
# starts, it removes those older than the expiry.
ini=$(cache_ini pruned <<INI
[api]
enabled = true
[cache]
expiry = 1
[resources]
collections = true
INI
)
start_server "$ini" /api
expect "cache: filled before pruning" GET "$ONE" 200 '{"data":{"title":"Hello Ignored"}}'
expect_stored "cache: one answer to prune" 1
stop_server
find "$CCACHE" -path '*/responses-*/*' -type f -exec touch -d '2 minutes ago' {} +
# No request that would store its answer: the workers start the watcher.
# mod_fcgid starts a worker at the first request only: a POST (405,
# never stored) asks for one.
start_server "$ini" /api
request POST /api/ping
for _ in $(seq 1 60); do
	[ "$(stored)" -eq 1 ] || break
	sleep 0.1
done
expect_stored "cache: an expired answer is removed by the watcher" 0
stop_server

# A config change is a new cache: an answer cached while a collection was
# enabled is not served once it is disabled (same site, same cache
# directory, same absolute URLs through base_url, so the same host).
ini=$(cache_ini before-change <<INI
[api]
enabled = true
base_url = http://cms.example
[resources]
collections = true
INI
)
start_server "$ini" /api
expect "cache: cached while enabled" GET /api/collections/team 200 \
	'{"data":{"handle":"team","title":"Team","structure":{"max_depth":1,"expects_root":false},"mount":null,"api_url":"http:\/\/cms.example\/api\/collections\/team"}}'
expect_stored "cache: the enabled answer is stored" 1
stop_server
ini=$(cache_ini after-change <<INI
[api]
enabled = true
base_url = http://cms.example
[resources]
collections = true
[resources.collections.team]
enabled = false
INI
)
start_server "$ini" /api
expect "cache: disabled after a config change, never served from the cache" \
	GET /api/collections/team 404 '{"message":"Not found."}'
stop_server
