# The walking skeleton through the web server: ping, sites, collections, the
# enabling rules as a client sees them, errors and the bearer token.

SITE="$FIXTURES/site"
NOT_FOUND='{"message":"Not found."}'

# --- everything on ---------------------------------------------------------
ini=$(site_ini all <<INI
[api]
enabled = true
[resources]
collections = true
sites = true
INI
)
start_server "$ini" /api

expect "ping" GET /api/ping 200 '{"ping":"pong"}'
expect_header "ping" "Content-Type: application/json"
expect_header "ping" "Content-Length: 15"
expect "ping with a query" GET '/api/ping?x=1&y[]=2' 200 '{"ping":"pong"}'
# Apache and nginx answer an HTTP/1.0 request with an HTTP/1.1 status
# line, lighttpd with HTTP/1.0: either way the same headers, no body.
out=$(raw_request 'HEAD /api/ping HTTP/1.0\r\nHost: x\r\n\r\n' | tr -d '\r')
case "$out" in
"HTTP/1."[01]" 200 OK"*"Content-Length: 15"*) [ "${out%%\{*}" = "$out" ] && pass || fail "HEAD ping has a body" "$out" ;;
*) fail "HEAD ping" "$out" ;;
esac

U="http:\/\/127.0.0.1:$PORT"
expect "sites" GET /api/sites 200 \
	"{\"data\":[{\"handle\":\"en\",\"name\":\"Example\",\"locale\":\"en_US\",\"short_locale\":\"en\",\"url\":\"$U\/\"},{\"handle\":\"de\",\"name\":\"Statamic Deutsch\",\"locale\":\"de_DE\",\"short_locale\":\"de\",\"url\":\"$U\/de\"}]}"

BLOG="{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,\"mount\":null,\"api_url\":\"$U\/api\/collections\/blog\"}"
DOCS="{\"handle\":\"docs\",\"title\":\"Docs & Guides\",\"structure\":null,\"mount\":\"home\",\"api_url\":\"$U\/api\/collections\/docs\"}"
PAGES="{\"handle\":\"pages\",\"title\":\"Pages\",\"structure\":{\"max_depth\":3,\"expects_root\":true},\"mount\":null,\"api_url\":\"$U\/api\/collections\/pages\"}"
TEAM="{\"handle\":\"team\",\"title\":\"Team\",\"structure\":{\"max_depth\":1,\"expects_root\":false},\"mount\":null,\"api_url\":\"$U\/api\/collections\/team\"}"
expect "collections index" GET /api/collections 200 "{\"data\":[$BLOG,$DOCS,$PAGES,$TEAM]}"
expect "collections index, trailing slash" GET /api/collections/ 200 "{\"data\":[$BLOG,$DOCS,$PAGES,$TEAM]}"
expect "collection show" GET /api/collections/pages 200 "{\"data\":$PAGES}"
expect "collection show, percent-encoded" GET /api/collections/p%61ges 200 "{\"data\":$PAGES}"
expect "collection show, host from the request" GET /api/collections/blog 200 \
	"{\"data\":{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,\"mount\":null,\"api_url\":\"http:\/\/example.org:8080\/api\/collections\/blog\"}}" \
	-H 'Host: example.org:8080'

expect "unknown collection" GET /api/collections/nope 404 "$NOT_FOUND"
expect_header "404" "Content-Type: application/json"
expect "unknown path" GET /api/nope 404 "$NOT_FOUND"
# nginx's "location ^~ /api/" answers /api itself with a redirect to /api/.
if only_under nginx; then
	request GET /api
	expect_header "the route itself: nginx redirects" "Location: http://127.0.0.1:$PORT/api/"
	request GET /api/
else
	request GET /api
fi
# The route itself lists what answers (t_frontend has the details).
case $BODY in '{"data":[{"path":"\/ping","url":"http:\/\/127.0.0.1:'"$PORT"'\/api\/ping"},'*)
	[ "$STATUS" = 200 ] && pass || fail "the route itself: $STATUS" ;;
*) fail "the route itself" "got: $STATUS $BODY" ;;
esac
expect "too deep" GET /api/collections/pages/x/y/z 404 "$NOT_FOUND"
expect "empty segment" GET /api//collections 404 "$NOT_FOUND"
expect "encoded slash" GET '/api/collections/pa%2Fges' 404 "$NOT_FOUND"

expect "POST is 405" POST /api/ping 405 '{"message":"Method Not Allowed."}'
expect_header "405 Allow" "Allow: GET, HEAD"
expect_header "405 type" "Content-Type: application/json"
expect "DELETE is 405" DELETE /api/collections/blog 405 '{"message":"Method Not Allowed."}'
expect "PUT is 405" PUT /api/nope 405 '{"message":"Method Not Allowed."}'
stop_server

# --- the API disabled: every request is a 404 --------------------------------
ini=$(site_ini disabled <<INI
[resources]
collections = true
sites = true
INI
)
start_server "$ini" /api
expect "disabled: ping" GET /api/ping 404 "$NOT_FOUND"
expect "disabled: collections" GET /api/collections 404 "$NOT_FOUND"
expect "disabled: POST" POST /api/ping 404 "$NOT_FOUND"
stop_server

# CMS_API_ENABLED turns it on without touching the file.
start_server "$ini" /api CMS_API_ENABLED true
expect "CMS_API_ENABLED=true: ping" GET /api/ping 200 '{"ping":"pong"}'
stop_server

# --- enabled, but no resource: ping still answers ----------------------------
ini=$(site_ini bare <<INI
[api]
enabled = true
INI
)
start_server "$ini" /api
expect "no resources: ping" GET /api/ping 200 '{"ping":"pong"}'
expect "no resources: sites" GET /api/sites 404 "$NOT_FOUND"
expect "no resources: collections" GET /api/collections 404 "$NOT_FOUND"
expect "no resources: collection" GET /api/collections/blog 404 "$NOT_FOUND"
stop_server

# --- one handle section enables just that handle ----------------------------
ini=$(site_ini handle <<INI
[api]
enabled = true
[resources.collections.blog]
INI
)
start_server "$ini" /api
U="http:\/\/127.0.0.1:$PORT"
BLOG="{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,\"mount\":null,\"api_url\":\"$U\/api\/collections\/blog\"}"
expect "handle section: index lists it alone" GET /api/collections 200 "{\"data\":[$BLOG]}"
expect "handle section: it answers" GET /api/collections/blog 200 "{\"data\":$BLOG}"
expect "handle section: others are 404" GET /api/collections/pages 404 "$NOT_FOUND"
expect "handle section: sites stay off" GET /api/sites 404 "$NOT_FOUND"
stop_server

# --- a type on, one handle switched off, custom route, base_url --------------
ini=$(site_ini route <<INI
[api]
enabled = true
route = /content/
base_url = https://cdn.example.com/
[resources]
collections = true
[resources.collections.pages]
enabled = false
INI
)
start_server "$ini" /content
B="https:\/\/cdn.example.com\/content\/collections"
expect "route: ping" GET /content/ping 200 '{"ping":"pong"}'
expect "handle disabled: 404" GET /content/collections/pages 404 "$NOT_FOUND"
expect "base_url in api_url" GET /content/collections/team 200 \
	"{\"data\":{\"handle\":\"team\",\"title\":\"Team\",\"structure\":{\"max_depth\":1,\"expects_root\":false},\"mount\":null,\"api_url\":\"$B\/team\"}}"
request GET /content/collections
case "$BODY" in
*'"pages"'*) fail "handle disabled: still listed" "$BODY" ;;
*'"team"'*) pass ;;
*) fail "route: collections index" "$BODY" ;;
esac
stop_server

# CMS_API_ROUTE overrides the file's route.
start_server "$ini" /v1 CMS_API_ROUTE v1
expect "CMS_API_ROUTE: ping" GET /v1/ping 200 '{"ping":"pong"}'
stop_server

# --- the bearer token ---------------------------------------------------------
ini=$(site_ini token <<INI
[api]
enabled = true
auth_token = file-secret
[resources]
collections = true
INI
)
start_server "$ini" /api CMS_API_AUTH_TOKEN s3cret
UNAUTH='{"message":"Unauthenticated."}'
expect "token: none" GET /api/ping 401 "$UNAUTH"
expect_header "token: none" "WWW-Authenticate: Bearer"
expect_header "token: none" "Content-Type: application/json"
expect "token: wrong" GET /api/ping 401 "$UNAUTH" -H 'Authorization: Bearer nope'
expect "token: the file's, overridden by the environment" GET /api/ping 401 "$UNAUTH" \
	-H 'Authorization: Bearer file-secret'
expect "token: prefix of the secret" GET /api/ping 401 "$UNAUTH" -H 'Authorization: Bearer s3cre'
expect "token: right" GET /api/ping 200 '{"ping":"pong"}' -H 'Authorization: Bearer s3cret'
expect "token: scheme word in any case" GET /api/ping 200 '{"ping":"pong"}' \
	-H 'Authorization: bEaReR s3cret'
expect "token: guards unknown paths too" GET /api/nope 401 "$UNAUTH"
expect "token: right, unknown path" GET /api/nope 404 "$NOT_FOUND" -H 'Authorization: Bearer s3cret'
stop_server
