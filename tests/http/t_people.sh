# Globals, forms and users through the web server: index and show of each, the
# site a global set is read in (with its origin's values), the exact keys
# of a form and of a user, what is never shown, the user list's filters,
# sort and pages, HEAD, and edits seen by the watcher.

PSITE="$T/people-site"
cp -r "$FIXTURES/site" "$PSITE"
# A set with values in the default site only.
printf 'title: Footer\n' >"$PSITE/content/globals/footer.yaml"
printf 'copyright: ACME\n' >"$PSITE/content/globals/en/footer.yaml"
# A form without a blueprint, and one whose field sets its own width.
printf 'title: Empty\n' >"$PSITE/resources/forms/empty.yaml"
printf 'title: Newsletter\nhoneypot: trap\nemail:\n  - to: owner@example.com\n' \
	>"$PSITE/resources/forms/newsletter.yaml"
printf 'fields:\n  - handle: address\n    field: {type: text, width: 50}\n' \
	>"$PSITE/resources/blueprints/forms/newsletter.yaml"
# A user named by its e-mail alone, with a numeric id.
printf 'id: 7\nsuper: false\n' >"$PSITE/users/cy@example.com.yaml"

ini=$(SITE="$PSITE" CACHE="$T/people-cache" site_ini people <<INI
[api]
enabled = true
[resources]
globals = true
forms = true
[resources.users]
allowed_filters = name, is_super, password, password_hash
INI
)
start_server "$ini" /api
P="http:\/\/127.0.0.1:$PORT\/api"
NOT_FOUND='{"message":"Not found."}'
SETTINGS_EN="{\"notice\":\"<p><strong>Closed<\/strong> on Mondays<\/p>\n\",\"open\":true,\"phone\":\"+1 555 0100\",\"site_name\":\"Example\",\"handle\":\"settings\",\"api_url\":\"$P\/globals\/settings\"}"
SETTINGS_DE="{\"notice\":\"<p><strong>Closed<\/strong> on Mondays<\/p>\n\",\"open\":true,\"phone\":\"+1 555 0100\",\"site_name\":\"Beispiel\",\"handle\":\"settings\",\"api_url\":\"$P\/globals\/settings\"}"
FOOTER="{\"copyright\":\"ACME\",\"handle\":\"footer\",\"api_url\":\"$P\/globals\/footer\"}"

# --- globals ---
expect "globals: index, default site" GET /api/globals 200 "{\"data\":[$FOOTER,$SETTINGS_EN]}"
expect "globals: show" GET /api/globals/settings 200 "{\"data\":$SETTINGS_EN}"
expect "globals: ?site= with the origin's values" GET '/api/globals/settings?site=de' 200 \
	"{\"data\":$SETTINGS_DE}"
expect "globals: index leaves out a set the site lacks" GET '/api/globals?site=de' 200 \
	"{\"data\":[$SETTINGS_DE]}"
expect "globals: a set the site lacks" GET '/api/globals/footer?site=de' 404 "$NOT_FOUND"
expect "globals: an unknown site" GET '/api/globals/settings?site=xx' 404 "$NOT_FOUND"
expect "globals: an unknown site, index" GET '/api/globals?site=xx' 404 "$NOT_FOUND"
expect "globals: unknown set" GET /api/globals/nope 404 "$NOT_FOUND"
# fields is honoured on one item (spec §4), not on the list (as Statamic);
# filters have no effect.
expect "globals: fields narrows a set, filters have no effect" GET \
	'/api/globals/footer?fields=handle&filter[x]=y' 200 '{"data":{"handle":"footer"}}'
expect "globals: fields and filters have no effect on the list" GET '/api/globals?fields=handle&filter[x]=y' \
	200 "{\"data\":[$FOOTER,$SETTINGS_EN]}"

# --- forms ---
CONTACT="{\"handle\":\"contact\",\"title\":\"Contact\",\"fields\":{\"name\":{\"type\":\"text\",\"display\":\"Name\",\"handle\":\"name\",\"width\":100},\"home_street\":{\"type\":\"text\",\"handle\":\"home_street\",\"width\":100},\"email\":{\"type\":\"text\",\"input_type\":\"email\",\"display\":\"Your e-mail\",\"handle\":\"email\",\"width\":100}},\"api_url\":\"$P\/forms\/contact\"}"
EMPTY="{\"handle\":\"empty\",\"title\":\"Empty\",\"fields\":[],\"api_url\":\"$P\/forms\/empty\"}"
NEWSLETTER="{\"handle\":\"newsletter\",\"title\":\"Newsletter\",\"fields\":{\"address\":{\"type\":\"text\",\"width\":50,\"handle\":\"address\"}},\"api_url\":\"$P\/forms\/newsletter\"}"
expect "forms: index" GET /api/forms 200 "{\"data\":[$CONTACT,$EMPTY,$NEWSLETTER]}"
expect "forms: show, never e-mail or honeypot" GET /api/forms/contact 200 "{\"data\":$CONTACT}"
expect "forms: no fields is []" GET /api/forms/empty 200 "{\"data\":$EMPTY}"
expect "forms: a width of its own" GET '/api/forms/newsletter?fields=title' 200 "{\"data\":$NEWSLETTER}"
expect "forms: unknown" GET /api/forms/nope 404 "$NOT_FOUND"

# --- users ---
ADA="{\"id\":\"user-ada\",\"email\":\"ada@example.com\",\"name\":\"Ada Lovelace\",\"is_super\":true,\"api_url\":\"$P\/users\/user-ada\"}"
BOB="{\"id\":\"user-bob\",\"email\":\"bob@example.com\",\"name\":\"Bob Stone\",\"is_super\":false,\"api_url\":\"$P\/users\/user-bob\"}"
CY="{\"id\":7,\"email\":\"cy@example.com\",\"name\":\"cy@example.com\",\"is_super\":false,\"api_url\":\"$P\/users\/7\"}"
U="$P\/users"
# users_page QUERY N: links and meta of a one-page user list of N users.
users_page() {
	local u="$U?$1&limit=25&page=1" from=1 to=$2
	[ "$2" = 0 ] && from=null && to=null
	printf '"links":{"first":"%s","last":"%s","prev":null,"next":null},"meta":{"current_page":1,"from":%s,"last_page":1,"links":[{"url":null,"label":"&laquo; Previous","page":null,"active":false},{"url":"%s","label":"1","page":1,"active":true},{"url":null,"label":"Next &raquo;","page":null,"active":false}],"path":"%s","per_page":25,"to":%s,"total":%s}' \
		"$u" "$u" "$from" "$u" "$U" "$to" "$2"
}
expect "users: list" GET '/api/users?sort=email' 200 "{\"data\":[$ADA,$BOB,$CY],$(users_page sort=email 3)}"
expect "users: show" GET /api/users/user-bob 200 "{\"data\":$BOB}"
expect "users: a numeric id" GET /api/users/7 200 "{\"data\":$CY}"
expect "users: unknown" GET /api/users/nope 404 "$NOT_FOUND"
expect "users: fields narrow, in their order, once" GET '/api/users/user-ada?fields=name,password_hash,id,name' 200 \
	'{"data":{"name":"Ada Lovelace","id":"user-ada"}}'
expect "users: fields never add" GET '/api/users/user-ada?fields=password_hash,remember_token,preferences' 200 \
	"{\"data\":$ADA}"
expect "users: password is never a filter" GET '/api/users?filter[password]=plaintext' 422 \
	'{"message":"Forbidden filter: password"}'
expect "users: nor password_hash" GET '/api/users?filter[password_hash:contains]=2y&filter[name]=x' 422 \
	'{"message":"Forbidden filter: password_hash"}'
expect "users: a field not allowed" GET '/api/users?filter[email]=x' 422 '{"message":"Forbidden filter: email"}'
expect "users: an allowed filter" GET '/api/users?filter[is_super]=true&fields=id' 200 \
	"{\"data\":[{\"id\":\"user-ada\"}],$(users_page 'filter%5Bis_super%5D=true&fields=id' 1)}"
expect "users: sort by name, descending" GET '/api/users?sort=-name&fields=name' 200 \
	"{\"data\":[{\"name\":\"cy@example.com\"},{\"name\":\"Bob Stone\"},{\"name\":\"Ada Lovelace\"}],$(users_page 'sort=-name&fields=name' 3)}"
request GET '/api/users?sort=email&limit=1&page=2&fields=email'
case "$BODY" in
"{\"data\":[{\"email\":\"bob@example.com\"}],\"links\":{\"first\":\"$U?sort=email&limit=1&fields=email&page=1\",\"last\":\"$U?sort=email&limit=1&fields=email&page=3\",\"prev\":\"$U?sort=email&limit=1&fields=email&page=1\",\"next\":\"$U?sort=email&limit=1&fields=email&page=3\"},\"meta\":{\"current_page\":2,\"from\":2,\"last_page\":3,"*"\"per_page\":1,\"to\":2,\"total\":3}}") pass ;;
*) fail "users: a middle page" "$BODY" ;;
esac
expect "users: bad page" GET '/api/users?page=x' 400 \
	'{"message":"The page parameter must be a whole number from 1, not \"x\"."}'
request GET '/api/users?limit=1000'
case "$BODY" in
*'$2y$'* | *password* | *remember* | *two_factor* | *preferences* | *dark*) fail "users: never a secret" "$BODY" ;;
*) pass ;;
esac

# HEAD: the headers of GET, no body.
for p in /api/globals/settings /api/forms/contact /api/users/user-ada; do
	out=$(raw_request "HEAD $p HTTP/1.0\r\nHost: x\r\n\r\n" | tr -d '\r')
	case "$out" in
	"HTTP/1."[01]" 200 OK"*"Content-Type: application/json"*'"data"'*) fail "HEAD $p has a body" "$out" ;;
	"HTTP/1."[01]" 200 OK"*"Content-Type: application/json"*) pass ;;
	*) fail "HEAD $p answers" "$out" ;;
	esac
done

# Edits are seen within a second or so; UserSaved is ignored by default,
# so a cached user answer stays while a new question sees the change.
sed -i 's/^site_name: Example$/site_name: Changed/' "$PSITE/content/globals/en/settings.yaml"
until_answer "globals: an edited variable shows" /api/globals/settings '{"data":{*"site_name":"Changed",*}}'
sed -i 's/^title: Contact$/title: Write to us/' "$PSITE/resources/forms/contact.yaml"
until_answer "forms: an edited form shows" /api/forms/contact '{"data":{"handle":"contact","title":"Write to us",*}}'
request GET /api/users/user-bob
index_before=$(gen_index "$T/people-cache"/generation-*)
sed -i 's/^last_name: Stone$/last_name: Rock/' "$PSITE/users/bob@example.com.yaml"
# Each poll is a new question: an answer cached before the index moved
# stays, UserSaved being ignored.
for try in $(seq 1 50); do
	request GET "/api/users/user-bob?fields=name&try=$try"
	[ "$BODY" = '{"data":{"name":"Bob Rock"}}' ] && break
	sleep 0.1
done
index_after=$(gen_index "$T/people-cache"/generation-*)
if [ "$BODY" = '{"data":{"name":"Bob Rock"}}' ] && [ "$index_before" != "$index_after" ]; then pass; else
	fail "users: an edited user shows to a new question" "$BODY; index $index_before -> $index_after"; fi
expect "users: UserSaved leaves the cached answer" GET /api/users/user-bob 200 "{\"data\":$BOB}"
stop_server

# excluded_keys: out of variables (never handle or api_url), out of users.
ini=$(SITE="$PSITE" CACHE="$T/people-cache2" site_ini people2 <<INI
[api]
enabled = true
excluded_keys = open, handle, api_url, is_super
[resources]
globals = true
users = true
INI
)
start_server "$ini" /api
P="http:\/\/127.0.0.1:$PORT\/api"
expect "globals: excluded keys, never handle or api_url" GET /api/globals/footer 200 \
	"{\"data\":{\"copyright\":\"ACME\",\"handle\":\"footer\",\"api_url\":\"$P\/globals\/footer\"}}"
request GET /api/globals/settings
case "$BODY" in
*'"open"'*) fail "globals: an excluded variable" "$BODY" ;;
*'"handle":"settings","api_url":'*) pass ;;
*) fail "globals: handle and api_url stay" "$BODY" ;;
esac
expect "users: excluded keys" GET /api/users/user-bob 200 \
	'{"data":{"id":"user-bob","email":"bob@example.com","name":"Bob Rock"}}'
stop_server
