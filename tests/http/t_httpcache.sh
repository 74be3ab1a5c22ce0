# HTTP caching through the web server (src/http_cache.h): the strong ETag
# of every 200, If-None-Match and the 304, Cache-Control, Vary, the gzip
# copy a stored answer goes out as, HEAD; and that the web server in
# front, compressing JSON itself as an administrator may set it to,
# neither compresses an answer again nor changes its ETag.

HSITE="$T/httpcache-site"
cp -r "$FIXTURES/site" "$HSITE"
HCACHE="$T/httpcache-cache"
hc_ini() { # NAME, extra INI on stdin
	SITE="$HSITE" CACHE="$HCACHE" site_ini "$1"
}

# The front server compresses application/json of its own: Apache and
# nginx everywhere (the shipped snippets keep it away from cms-api's
# answers), lighttpd outside the API, as etc/lighttpd-cms-api.conf says
# (its mod_deflate compresses an answer that arrives whole at once, so
# some misses and not others).
case $SERVER in
lighttpd)
	LIGHTTPD_EXTRA_CONF='server.modules += ( "mod_deflate" )
$HTTP["url"] !~ "^/api(/|$)" {
	deflate.mimetypes = ( "application/json" )
	deflate.allowed-encodings = ( "gzip" )
}'
	;;
apache)
	APACHE_EXTRA_CONF="LoadModule filter_module $APACHE_MODULES/mod_filter.so
LoadModule deflate_module $APACHE_MODULES/mod_deflate.so
AddOutputFilterByType DEFLATE application/json"
	;;
nginx)
	NGINX_EXTRA_CONF='gzip on;
gzip_types application/json;
gzip_min_length 1;'
	;;
esac

ini=$(hc_ini httpcache <<INI
[api]
enabled = true
[resources]
collections = true
INI
)
start_server "$ini" /api

# hc_headers: the headers of the last answer, "name: value" with the name
# in lower case, sorted, without those the web server adds of its own
# (Date, Server, Connection, Keep-Alive; lighttpd's Accept-Ranges), Vary's
# list without spaces (Apache joins it so), and with a hit's max-age,
# which counts down, written "max-age=LEFT" when it is within a minute
# of the whole expiry.
hc_normal() {
	sed -e '/^vary: /s/, */,/g' -e 's/max-age=35[4-9][0-9]$/max-age=LEFT/' \
		-e 's/max-age=3600$/max-age=LEFT/' | sort
}
hc_headers() {
	tr -d '\r' <"$T/headers" | sed 1d | awk 'NF' |
		awk '{ i = index($0, ":"); n = tolower(substr($0, 1, i - 1)); v = substr($0, i + 1)
			sub(/^[ \t]*/, "", v)
			if (n != "date" && n != "server" && n != "connection" && n != "keep-alive" &&
			    n != "accept-ranges") print n ": " v }' | hc_normal
}
# expect_headers NAME STATUS HEADER...: the last answer had that status
# and exactly those headers (any order; see hc_headers).
expect_headers() {
	local name=$1 status=$2 want got
	shift 2
	want=$(printf '%s\n' "$@" | hc_normal)
	got=$(hc_headers)
	if [ "$STATUS" = "$status" ] && [ "$got" = "$want" ]; then
		pass
	else
		fail "$name" "expected: $status $(printf '%s' "$want" | tr '\n' '|')" \
			"got:      $STATUS $(printf '%s' "$got" | tr '\n' '|')"
	fi
}
# hc_stored COUNT: up to 2 s for COUNT answers to be stored (after the
# answer is sent).
hc_stored() {
	local n
	for _ in $(seq 1 40); do
		n=$(find "$HCACHE" -path '*/responses-*/*' -type f ! -name '*.tmp-*' ! -name '.*' | wc -l)
		[ "$n" -ge "$1" ] && return 0
		sleep 0.05
	done
	return 1
}
size_of() { wc -c <"$1" | tr -d ' '; }

LIST=/api/collections/blog/entries
CT='content-type: application/json'
VARY='vary: Accept-Encoding'

# --- a miss: the body as made, the whole expiry ----------------------------------
request GET "$LIST" -H 'Accept-Encoding: gzip'
cp "$T/body" "$T/identity"
ETAG=$(etag_of "$(cat "$T/identity")")
GZ_ETAG="${ETAG%\"}-gz\""
expect_headers "httpcache: a miss" 200 "$CT" "content-length: $(size_of "$T/identity")" \
	"etag: $ETAG" 'cache-control: public, max-age=LEFT' "$VARY"
grep -q 'max-age=3600' "$T/headers" && pass || fail "httpcache: a miss has the whole expiry" "$(cat "$T/headers")"
[ "$(size_of "$T/identity")" -gt 256 ] && pass || fail "httpcache: the list is long enough for a gzip copy"
hc_stored 1 && pass || fail "httpcache: the miss was stored"

# --- hits: identity, or the stored gzip copy ---------------------------------------
request GET "$LIST"
expect_headers "httpcache: a hit" 200 "$CT" "content-length: $(size_of "$T/identity")" \
	"etag: $ETAG" 'cache-control: public, max-age=LEFT' "$VARY"
cmp -s "$T/body" "$T/identity" && pass || fail "httpcache: a hit serves the same bytes"

request GET "$LIST" -H 'Accept-Encoding: gzip'
cp "$T/body" "$T/gzipped"
expect_headers "httpcache: a gzip hit" 200 "$CT" "content-length: $(size_of "$T/gzipped")" \
	"etag: $GZ_ETAG" 'cache-control: public, max-age=LEFT' "$VARY" 'content-encoding: gzip'
# Compressed once: one gunzip gives exactly the identity body.
if gzip -dc <"$T/gzipped" >"$T/gunzipped" 2>/dev/null && cmp -s "$T/gunzipped" "$T/identity"; then
	pass
else
	fail "httpcache: the gzip answer decompresses to the identity body" "$(head -c 80 "$T/gunzipped")"
fi
[ "$(size_of "$T/gzipped")" -lt "$(size_of "$T/identity")" ] && pass ||
	fail "httpcache: the gzip answer is smaller"
curl -s --compressed -o "$T/curl-body" "http://127.0.0.1:$PORT$LIST"
cmp -s "$T/curl-body" "$T/identity" && pass || fail "httpcache: curl --compressed gets the identity body"

# Accept-Encoding as the client weighs it (passed on by the server as sent).
for ae in 'gzip;q=0' 'deflate, br' 'gzip;q=0, *' 'identity;q=1, gzip;q=0.5'; do
	request GET "$LIST" -H "Accept-Encoding: $ae"
	if [ "$STATUS" = 200 ] && ! grep -qi '^content-encoding:' "$T/headers" && cmp -s "$T/body" "$T/identity" &&
		grep -qx "ETag: $ETAG" <(tr -d '\r' <"$T/headers"); then
		pass
	else
		fail "httpcache: Accept-Encoding: $ae gets the identity body" "$(hc_headers | tr '\n' '|')"
	fi
done
for ae in '*' 'br;q=1.0, gzip;q=0.8, *;q=0.1' 'x-gzip'; do
	request GET "$LIST" -H "Accept-Encoding: $ae"
	if [ "$STATUS" = 200 ] && grep -qi '^content-encoding: gzip' "$T/headers" && cmp -s "$T/body" "$T/gzipped"; then
		pass
	else
		fail "httpcache: Accept-Encoding: $ae gets the gzip copy" "$(hc_headers | tr '\n' '|')"
	fi
done

# --- If-None-Match ------------------------------------------------------------------
# expect_304 NAME IF-NONE-MATCH ETAG [curl args]: a 304 without a body,
# carrying ETAG, Cache-Control and Vary.
expect_304() {
	local name=$1 inm=$2 etag=$3
	shift 3
	request GET "$LIST" -H "If-None-Match: $inm" "$@"
	local got
	got=$(hc_headers | grep -v '^content-length: 0$')
	if [ "$STATUS" = 304 ] && [ -z "$BODY" ] && [ "$got" = "$(printf '%s\n' 'cache-control: public, max-age=LEFT' "etag: $etag" "$VARY" | hc_normal)" ]; then
		pass
	else
		fail "httpcache: 304: $name" "If-None-Match: $inm" "got: $STATUS $(hc_headers | tr '\n' '|') $(head -c 60 "$T/body" | tr -cd '[:print:]')"
	fi
}
expect_304 "the ETag" "$ETAG" "$ETAG"
expect_304 "in a list" "\"nope\", $ETAG, \"other\"" "$ETAG"
expect_304 "weak" "W/$ETAG" "$ETAG"
expect_304 "the gzip form" "$GZ_ETAG" "$GZ_ETAG" -H 'Accept-Encoding: gzip'
expect_304 "the identity form, gzip accepted" "$ETAG" "$ETAG" -H 'Accept-Encoding: gzip'
expect_304 "the gzip form, weak, gzip not accepted" "W/$GZ_ETAG" "$GZ_ETAG"
expect_304 "*, gzip accepted" '*' "$GZ_ETAG" -H 'Accept-Encoding: gzip'
expect_304 "*" '*' "$ETAG"
request GET "$LIST" -H 'If-None-Match: "0123456789abcdef", W/"nope"'
[ "$STATUS" = 200 ] && cmp -s "$T/body" "$T/identity" && pass ||
	fail "httpcache: another ETag gets the 200" "$STATUS"
# A miss too: the 304, and the 200 is stored for the next request.
request GET "$LIST?limit=2" -H 'If-None-Match: *'
[ "$STATUS" = 304 ] && [ -z "$BODY" ] && pass || fail "httpcache: 304 on a miss" "$STATUS $BODY"
hc_stored 2 && pass || fail "httpcache: a miss that 304s is stored"
request GET "$LIST?limit=2"
[ "$STATUS" = 200 ] && [[ "$BODY" == '{"data":['* ]] && pass || fail "httpcache: then a hit" "$STATUS $BODY"

# --- HEAD: the headers a GET gets, no body ----------------------------------------------
request HEAD "$LIST"
expect_headers "httpcache: HEAD" 200 "$CT" "content-length: $(size_of "$T/identity")" \
	"etag: $ETAG" 'cache-control: public, max-age=LEFT' "$VARY"
request HEAD "$LIST" -H 'Accept-Encoding: gzip'
expect_headers "httpcache: HEAD, gzip" 200 "$CT" "content-length: $(size_of "$T/gzipped")" \
	"etag: $GZ_ETAG" 'cache-control: public, max-age=LEFT' "$VARY" 'content-encoding: gzip'
out=$(raw_request "HEAD $LIST HTTP/1.0\r\nHost: 127.0.0.1:$PORT\r\nAccept-Encoding: gzip\r\n\r\n" |
	tr -d '\r' | awk 'body { print } !NF { body = 1 }' | wc -c)
[ "$out" = 0 ] && pass || fail "httpcache: HEAD of a gzip hit has no body" "$out bytes after the headers"
request HEAD "$LIST" -H "If-None-Match: $ETAG"
[ "$STATUS" = 304 ] && pass || fail "httpcache: HEAD with If-None-Match" "$STATUS"

# --- errors: no ETag; a stored 404 may be kept, others not ----------------------------
request GET /api/collections/nope -H 'If-None-Match: *'
expect_headers "httpcache: a 404 (stored)" 404 "$CT" 'content-length: 24' \
	'cache-control: public, max-age=LEFT' "$VARY"
request GET "$LIST?limit=0" -H 'If-None-Match: *'
expect_headers "httpcache: a 400" 400 "$CT" "content-length: $(size_of "$T/body")" \
	'cache-control: no-cache' "$VARY"

# --- a change to the site: a new body, a new ETag; the old one no longer 304s ----------
sed -i "s/^title: 'Hello World'/title: 'Hello Changed'/" "$HSITE/content/collections/blog/en/2024-01-10.hello-world.md"
for _ in $(seq 1 50); do
	request GET "$LIST" -H "If-None-Match: $ETAG"
	[ "$STATUS" = 200 ] && [[ "$BODY" == *'Hello Changed'* ]] && break
	sleep 0.1
done
NEW_ETAG=$(etag_of "$BODY")
if [ "$STATUS" = 200 ] && [[ "$BODY" == *'Hello Changed'* ]] && [ "$NEW_ETAG" != "$ETAG" ] &&
	grep -qx "ETag: $NEW_ETAG" <(tr -d '\r' <"$T/headers"); then
	pass
else
	fail "httpcache: a changed site gives a new ETag" "$STATUS $(hc_headers | tr '\n' '|')"
fi
expect_304 "the new ETag" "$NEW_ETAG" "$NEW_ETAG"
stop_server

# --- a token-protected API: private, Vary Authorization --------------------------------
ini=$(hc_ini httpcache-token <<INI
[api]
enabled = true
auth_token = s3cret
[resources]
collections = true
INI
)
start_server "$ini" /api
AUTH='Authorization: Bearer s3cret'
VARY_AUTH='vary: Accept-Encoding, Authorization'
request GET "$LIST" -H "$AUTH"
cp "$T/body" "$T/identity"
ETAG=$(etag_of "$(cat "$T/identity")")
expect_headers "httpcache: token: a miss" 200 "$CT" "content-length: $(size_of "$T/identity")" \
	"etag: $ETAG" 'cache-control: private, max-age=LEFT' "$VARY_AUTH"
hc_stored 1
request GET "$LIST" -H "$AUTH" -H 'Accept-Encoding: gzip'
expect_headers "httpcache: token: a gzip hit" 200 "$CT" "content-length: $(size_of "$T/body")" \
	"etag: ${ETAG%\"}-gz\"" 'cache-control: private, max-age=LEFT' "$VARY_AUTH" 'content-encoding: gzip'
request GET "$LIST" -H 'If-None-Match: *'
expect_headers "httpcache: token: none, a 401 and no 304" 401 "$CT" "content-length: $(size_of "$T/body")" \
	'cache-control: private, no-cache' "$VARY_AUTH" 'www-authenticate: Bearer'
stop_server

# --- the cache off: an ETag all the same, no-cache, never compressed --------------------
ini=$(hc_ini httpcache-off <<INI
[api]
enabled = true
[cache]
driver = none
[resources]
collections = true
INI
)
start_server "$ini" /api
request GET "$LIST" -H 'Accept-Encoding: gzip'
ETAG=$(etag_of "$BODY")
expect_headers "httpcache: uncached" 200 "$CT" "content-length: $(size_of "$T/body")" \
	"etag: $ETAG" 'cache-control: no-cache' "$VARY"
request GET "$LIST" -H "If-None-Match: $ETAG"
[ "$STATUS" = 304 ] && [ -z "$BODY" ] && pass || fail "httpcache: uncached: 304" "$STATUS $BODY"
stop_server
LIGHTTPD_EXTRA_CONF=
APACHE_EXTRA_CONF=
NGINX_EXTRA_CONF=
