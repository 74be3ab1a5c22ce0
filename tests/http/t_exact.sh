# Exactly the contract, through the web server, on a site written here: content
# is data (no byte of it turns into a URL), keys that are never served
# stay unserved, no fixed cap drops a key, a key asked for twice is
# written once, a Host that is not a host and a path longer than any
# route are refused, and excluded_keys reach into relations.

XSITE="$T/exact-site"
xfile() { mkdir -p "$(dirname "$XSITE/$1")"; cat >"$XSITE/$1"; }
xfile content/collections/notes.yaml <<'YAML'
title: Notes
route: '/notes/{slug}'
YAML
xfile resources/blueprints/collections/notes/note.yaml <<'YAML'
fields:
  - handle: related
    field: {type: entries}
YAML
xfile content/collections/notes/one.md <<'YAML'
---
id: one
title: One
subtitle: "\x01/evil"
tagline: "\x02users/x"
password: hunter2
password_hash: '$2y$10$abc'
remember_token: tok
two_factor_secret: s3cret
two_factor_recovery_codes: [a, b]
passkeys: [k]
preferences: {theme: dark}
related: [two]
---
YAML
xfile content/collections/notes/two.md <<'YAML'
---
id: two
title: Two
---
YAML
{
	printf 'title: Big\n'
} | xfile content/navigation/big.yaml
{
	printf 'tree:\n  -\n    id: l1\n    title: Link\n    url: /somewhere\n    data:\n'
	for i in $(seq -w 1 41); do printf '      k%s: v%s\n' "$i" "$i"; done
	printf '      password: nope\n'
} | xfile content/trees/navigation/big.yaml

ini=$(SITE="$XSITE" site_ini exact <<INI
[api]
enabled = true
excluded_keys = permalink
[resources]
collections = true
navs = true
[resources.collections.notes]
allowed_filters = password, title
INI
)
start_server "$ini" /api
U="http:\/\/127.0.0.1:$PORT"

expect "content that starts with 0x01 or 0x02 stays content" GET \
	'/api/collections/notes/entries/one?fields=subtitle,tagline' 200 \
	'{"data":{"subtitle":"\u0001\/evil","tagline":"\u0002users\/x"}}'

request GET /api/collections/notes/entries/one
for key in password password_hash remember_token two_factor_secret two_factor_recovery_codes passkeys preferences hunter2 s3cret; do
	case "$BODY" in
	*"$key"*) fail "never served: $key in an entry" "$BODY" ;;
	*) pass ;;
	esac
done
expect "never served, not even through fields=" GET \
	'/api/collections/notes/entries/one?fields=title,password,two_factor_secret' 200 \
	'{"data":{"title":"One","password":null,"two_factor_secret":null}}'
request GET '/api/collections/notes/entries?filter[password]=hunter2&fields=id'
case "$BODY" in
'{"data":[],'*) pass ;;
*) fail "never served: not filterable either" "$BODY" ;;
esac

expect "a key asked for twice is written once, where first asked" GET \
	'/api/collections/notes/entries/one?fields=title,id,title,id,title' 200 \
	'{"data":{"title":"One","id":"one"}}'
request GET '/api/collections/notes/entries?fields[]=title&fields[]=title&fields=id,title&limit=1'
case "$BODY" in
'{"data":[{"title":"One","id":"one"}],'*) pass ;;
*) fail "fields[] and fields together, each key once" "$BODY" ;;
esac

expect "excluded_keys inside a relation" GET '/api/collections/notes/entries/one?fields=related' 200 \
	"{\"data\":{\"related\":[{\"id\":\"two\",\"title\":\"Two\",\"url\":\"\/notes\/two\",\"api_url\":\"$U\/api\/collections\/notes\/entries\/two\"}]}}"

request GET '/api/navs/big/tree'
keys=$(printf '%s' "$BODY" | grep -o '"k[0-9][0-9]":"v[0-9][0-9]"' | wc -l)
if [ "$keys" = 41 ]; then pass; else fail "a nav link keeps all 41 of its keys (got $keys)" "$BODY"; fi
case "$BODY" in
*'"id":"l1"'*'"title":"Link"'*'"uri":"\/somewhere","url":"\/somewhere"'*) pass ;;
*) fail "a nav link keeps id, title, uri and url" "$BODY" ;;
esac
case "$BODY" in
*password*|*'"permalink"'*) fail "a nav link: never-served and excluded keys stay out" "$BODY" ;;
*) pass ;;
esac

# lighttpd refuses such a Host itself; other front servers (and a direct
# FastCGI client) pass it on, so the worker refuses it too: as CGI here.
expect "a Host with a port is fine" GET /api/ping 200 '{"ping":"pong"}' -H 'Host: example.org:8080'
NL=$'\n'
for host in '127.0.0.1/api/collections' 'a b' 'x@y'; do
	out=$(env GATEWAY_INTERFACE=CGI/1.1 CMS_API_CONFIG="$ini" REQUEST_METHOD=GET \
		REQUEST_URI=/api/ping HTTP_HOST="$host" "$CMS_API_BIN" </dev/null | tr -d '\r')
	if [ "$out" = "Status: 400 Bad Request${NL}Content-Type: application/json${NL}Cache-Control: no-cache${NL}Vary: Accept-Encoding${NL}Content-Length: 49${NL}${NL}{\"message\":\"The Host header is not a host name.\"}" ]; then
		pass
	else
		fail "a Host that is not a host name: '$host'" "$out"
	fi
done

long=/api$(printf '/x%.0s' $(seq 1 40))
expect "a path longer than any route" GET "$long" 404 '{"message":"Not found."}'
expect "the same path a hundred segments long" GET "$long$long$long" 404 '{"message":"Not found."}'
stop_server
if grep -q 'programming error' "$T/worker.log" 2>/dev/null; then
	fail "the workers logged a programming error" "$(grep 'programming error' "$T/worker.log")"
else
	pass
fi
