# What a frontend developer reaches for first, through each web server:
# /api lists the endpoints that answer, /api/openapi.json describes them
# ([api] openapi), and a page on another origin may call the API ([api]
# cors_origins): preflights, the headers on every answer, and nothing of
# it when CORS is off. (Every answer any test gets is also checked
# against the OpenAPI document of its config: check_answers, lib.sh.)

SITE="$FIXTURES/site"
FE_NOT_FOUND='{"message":"Not found."}'

ini=$(RATE_PER_MINUTE=1000 site_ini frontend <<INI
[api]
enabled = true
openapi = true
cors_origins = https://app.example, http://localhost:3000
cors_max_age = 120
[resources.collections.blog]
allowed_filters = title
INI
)
start_server "$ini"

# expect_vary NAME LIST: the last answer's Vary was LIST, spaces aside
# (Apache joins the list without them).
expect_vary() {
	local got
	got=$(tr -d '\r' <"$T/headers" | awk 'tolower($1) == "vary:" {sub(/^[^:]*: */, ""); print}' | tr -d ' ')
	[ "$got" = "$(printf '%s' "$2" | tr -d ' ')" ] && pass || fail "$1: Vary" "expected: $2" "got:      $got"
}

# --- /api: the index ----------------------------------------------------------
fe_url() { printf 'http:\\/\\/127.0.0.1:%s\\/api%s' "$PORT" "$1"; }
fe_item() { printf '{"path":"%s","url":"%s"}' "$(printf '%s' "$1" | sed 's#/#\\/#g')" "$(fe_url "$(printf '%s' "$1" | sed 's#/#\\/#g')")"; }
FE_INDEX="{\"data\":[$(fe_item /ping),$(fe_item /openapi.json),$(fe_item /collections),$(fe_item /collections/blog),$(fe_item /collections/blog/entries),$(fe_item '/collections/blog/entries/{id}')]}"
expect "the index" GET /api/ 200 "$FE_INDEX"
expect_header "the index's type" "Content-Type: application/json"
# nginx's "location ^~ /api/" answers /api itself with a redirect to /api/.
if ! only_under nginx; then
	expect "the index without its slash" GET /api 200 "$FE_INDEX"
fi

# --- /api/openapi.json ------------------------------------------------------------
request GET /api/openapi.json
if [ "$STATUS" = 200 ] && printf '%s' "$BODY" | grep -q '^{"openapi":"3.1.0",'; then pass; else
	fail "the OpenAPI document" "$STATUS $(printf '%s' "$BODY" | head -c 200)"
fi
expect_header "the document's type" "Content-Type: application/json"
# Only what answers: blog and its filter, no other collection or type.
for want in '"\/collections\/blog\/entries":' '"pattern":"^(?:title)(?:' \
	"\"url\":\"$(fe_url '')\"" '"options":{"operationId":"options_collections_blog"'; do
	printf '%s' "$BODY" | grep -qF -- "$want" && pass || fail "the document holds $want"
done
for never in '"\/collections\/pages' '"\/navs' '"\/users' '"\/img\/' '"securitySchemes"'; do
	printf '%s' "$BODY" | grep -qF -- "$never" && fail "the document holds $never" || pass
done

# --- CORS: an allowed origin --------------------------------------------------
expect "GET from an allowed origin" GET /api/ping 200 '{"ping":"pong"}' -H 'Origin: https://app.example'
expect_header "its origin allowed" "Access-Control-Allow-Origin: https://app.example"
expect_header "what a script may read" "Access-Control-Expose-Headers: ETag, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After"
expect_vary "Vary: Origin" "Accept-Encoding, Origin"
expect_no_header "no credentials unless asked for" Access-Control-Allow-Credentials
# The same answer, now from the cache, to another origin: its own header.
expect "the hit from the other allowed origin" GET /api/ping 200 '{"ping":"pong"}' -H 'Origin: http://localhost:3000'
expect_header "the hit's origin" "Access-Control-Allow-Origin: http://localhost:3000"
# ...and to an origin not allowed: none (the cache never keeps them).
expect "GET from another origin" GET /api/ping 200 '{"ping":"pong"}' -H 'Origin: https://evil.example'
expect_no_header "no origin allowed" Access-Control-Allow-Origin
expect_vary "Vary: Origin all the same" "Accept-Encoding, Origin"
expect "GET without Origin" GET /api/ping 200 '{"ping":"pong"}'
expect_no_header "no CORS without Origin" Access-Control-Allow-Origin
# Errors too: a page must be able to read them.
expect "a 404 to an allowed origin" GET /api/nope 404 "$FE_NOT_FOUND" -H 'Origin: https://app.example'
expect_header "the 404's origin" "Access-Control-Allow-Origin: https://app.example"

# --- the preflight: answered, counted once, the content never read ----------
request GET /api/ping
fe_before=$(tr -d '\r' <"$T/headers" | awk -F': ' 'tolower($1) == "x-ratelimit-remaining" {print $2}')
expect "a preflight" OPTIONS /api/collections/blog/entries 204 "" \
	-H 'Origin: https://app.example' -H 'Access-Control-Request-Method: GET' \
	-H 'Access-Control-Request-Headers: authorization'
expect_header "preflight: origin" "Access-Control-Allow-Origin: https://app.example"
expect_header "preflight: methods" "Access-Control-Allow-Methods: GET, HEAD"
expect_header "preflight: headers" "Access-Control-Allow-Headers: Authorization, If-None-Match"
expect_header "preflight: max age" "Access-Control-Max-Age: 120"
expect_vary "preflight: Vary" "Accept-Encoding, Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
expect_header "preflight: counted once" "X-RateLimit-Remaining: $((fe_before - 1))"
expect_no_header "preflight: no body's type" Content-Type
expect "a preflight from another origin" OPTIONS /api/ping 204 "" \
	-H 'Origin: https://evil.example' -H 'Access-Control-Request-Method: GET'
expect_no_header "no origin allowed to it" Access-Control-Allow-Origin
expect "OPTIONS that is no preflight" OPTIONS /api/ping 405 '{"message":"Method Not Allowed."}'
stop_server

# --- a token: the preflight comes before it, the 401 carries the origin -------
ini=$(site_ini frontend-token <<INI
[api]
enabled = true
auth_token = s3cret
cors_origins = *
[resources]
collections = true
INI
)
start_server "$ini"
expect "preflight without the token" OPTIONS /api/collections 204 "" \
	-H 'Origin: https://any.example' -H 'Access-Control-Request-Method: GET'
expect_header "every origin" "Access-Control-Allow-Origin: *"
expect "a 401 a page can read" GET /api/collections 401 '{"message":"Unauthenticated."}' \
	-H 'Origin: https://any.example'
expect_header "the 401's origin" "Access-Control-Allow-Origin: *"
request GET /api/collections -H 'Origin: https://any.example' -H 'Authorization: Bearer s3cret'
[ "$STATUS" = 200 ] && pass || fail "GET with the token from a page: $STATUS"
expect_vary "Vary: Authorization and Origin" "Accept-Encoding, Authorization, Origin"
expect "the index with the token" GET /api/ping 200 '{"ping":"pong"}' -H 'Authorization: Bearer s3cret'
stop_server

# --- CORS off (the default): nothing of it, OPTIONS is 405; no document -------
ini=$(site_ini frontend-off <<INI
[api]
enabled = true
[resources]
collections = true
INI
)
start_server "$ini"
expect "no CORS: GET" GET /api/ping 200 '{"ping":"pong"}' -H 'Origin: https://app.example'
expect_no_header "no CORS: no origin" Access-Control-Allow-Origin
expect_vary "no CORS: no Vary: Origin" "Accept-Encoding"
expect "no CORS: a preflight is 405" OPTIONS /api/ping 405 '{"message":"Method Not Allowed."}' \
	-H 'Origin: https://app.example' -H 'Access-Control-Request-Method: GET'
expect_no_header "no CORS: nothing on the 405" Access-Control-Allow-Origin
expect "no document unless asked for" GET /api/openapi.json 404 "$FE_NOT_FOUND"
request GET /api/
[ "$STATUS" = 200 ] && printf '%s' "$BODY" | grep -qF '{"path":"\/ping"' &&
	! printf '%s' "$BODY" | grep -qF 'openapi' && pass ||
	fail "the index without the document" "$STATUS $BODY"
stop_server

# --- the API off: /api is a 404 as every path ------------------------------
ini=$(site_ini frontend-disabled <<INI
[api]
enabled = false
openapi = true
INI
)
start_server "$ini"
expect "API off: the index" GET /api/ 404 "$FE_NOT_FOUND"
expect "API off: the document" GET /api/openapi.json 404 "$FE_NOT_FOUND"
stop_server
