# Fields as Statamic augments them, through the web server, on
# tests/fixtures/augment-site: an entry's relationship fields as objects
# and the same fields on its tree page as the values stored (Statamic's
# page asks for no relations), navigation pages through the navigation's
# blueprint, and `fields` on one global set.

ini=$(SITE="$FIXTURES/augment-site" site_ini augment <<INI
[api]
enabled = true
[resources]
collections = true
navs = true
globals = true
taxonomies = true
forms = true
INI
)
start_server "$ini" /api
U="http:\/\/127.0.0.1:$PORT"
CHILD="{\"id\":\"child\",\"title\":\"Child\",\"url\":\"\/home\/child\",\"permalink\":\"$U\/home\/child\",\"api_url\":\"$U\/api\/collections\/pages\/entries\/child\"}"
SIGNUP="{\"handle\":\"contact\",\"title\":\"Contact Us\",\"api_url\":\"$U\/api\/forms\/contact\"}"
expect "augment: an entry's relations" GET \
	'/api/collections/pages/entries/home?fields=friends,signup,picks,kinds,go_entry,go_url,go_asset,choice' \
	200 "{\"data\":{\"friends\":[$CHILD],\"signup\":$SIGNUP,\"picks\":[{\"title\":\"Field Notes\",\"handle\":\"notes\"}],\"kinds\":[],\"go_entry\":$CHILD,\"go_url\":{\"url\":\"#top\"},\"go_asset\":{\"id\":\"files::notes.txt\",\"url\":\"\/assets\/notes.txt\",\"permalink\":\"$U\/assets\/notes.txt\",\"api_url\":\"$U\/api\/assets\/files\/notes.txt\",\"alt\":null},\"choice\":{\"value\":null,\"label\":null,\"key\":null}}}"
expect "augment: a set keeps its fields only" GET '/api/collections/pages/entries/home?fields=blocks' 200 \
	'{"data":{"blocks":[{"heading":"Hi","level":{"value":"h2","label":"H2","key":"h2"},"id":"s1","type":"hero"},{"id":"s2","type":"plain","enabled":true,"extra":"kept"},{"id":"s4","type":"quiet"}]}}'
expect "augment: a tree page shows relations as stored" GET \
	'/api/collections/pages/tree?fields=title,friends,signup,picks,kinds,topics,go_entry,parent' 200 \
	"{\"data\":[{\"page\":{\"title\":\"Home\",\"friends\":[\"child\",\"gone\"],\"signup\":[\"contact\"],\"picks\":[\"notes\",\"nope\"],\"kinds\":[\"nothing\"],\"topics\":[\"alpha\",\"ghost\"],\"go_entry\":$CHILD,\"parent\":null},\"depth\":1,\"children\":[{\"page\":{\"title\":\"Child\",\"friends\":[],\"signup\":[],\"picks\":[],\"kinds\":[],\"topics\":[],\"go_entry\":{\"url\":null},\"parent\":null},\"depth\":2,\"children\":[]}]}]}"
request GET '/api/collections/pages/tree'
case "$BODY" in
*'"parent"'*) fail "augment: a tree page has no parent" "$BODY" ;;
*) pass ;;
esac
expect "augment: navigation pages through the navigation's blueprint" GET \
	'/api/navs/main/tree?fields=id,title,badge,bold,extra_pages,friends' 200 \
	'{"data":[{"page":{"id":"n1","title":"Home","badge":"New","bold":false,"extra_pages":[],"friends":["child","gone"]},"depth":1,"children":[]},{"page":{"id":"n2","title":"Away","badge":null,"bold":true,"extra_pages":null,"friends":null},"depth":1,"children":[]}]}'
request GET '/api/navs/main/tree'
case "$BODY" in
*'{"page":{"bold":true,"entry_id":null,"id":"n2","permalink":"https:\/\/example.com","title":"Away","uri":"https:\/\/example.com","url":"https:\/\/example.com"},"depth":1,"children":[]}'*) pass ;;
*) fail "augment: a link page has only its data's keys" "$BODY" ;;
esac
expect "augment: a global set has every field" GET /api/globals/brand 200 \
	"{\"data\":{\"links\":[],\"name\":\"Acme\",\"theme\":{\"value\":\"light\",\"label\":\"Light\",\"key\":\"light\"},\"handle\":\"brand\",\"api_url\":\"$U\/api\/globals\/brand\"}}"
expect "augment: fields on a global set" GET '/api/globals/brand?fields=theme,handle,nope' 200 \
	'{"data":{"theme":{"value":"light","label":"Light","key":"light"},"handle":"brand","nope":null}}'
expect "augment: fields on the globals list are Statamic's: none" GET '/api/globals?fields=theme' 200 \
	"{\"data\":[{\"links\":[],\"name\":\"Acme\",\"theme\":{\"value\":\"light\",\"label\":\"Light\",\"key\":\"light\"},\"handle\":\"brand\",\"api_url\":\"$U\/api\/globals\/brand\"}]}"
expect "augment: a term's blueprint" GET '/api/taxonomies/topics/terms/alpha?fields=blueprint,content,author' 200 \
	'{"data":{"blueprint":{"title":"Topic","handle":"topic"},"content":null,"author":null}}'
expect "augment: the fallback blueprint" GET '/api/collections/notes/entries/first?fields=blueprint,author,content' 200 \
	'{"data":{"blueprint":{"title":"Field Note","handle":"note"},"author":null,"content":"<p>A <em>note<\/em>.<\/p>\n"}}'
stop_server
