# Response shapes of one's own, through the web server: the INI's
# [shape.*] sections on every kind of item, fields= and include= through
# relations, and the shape plug-ins (the example one, and the test ones
# that misbehave: a plug-in that crashes costs its worker, and the log
# names it).

L=1f2e3d4c-0000-4000-8000-000000000003 # Launch, which relates to Hello World
H=1f2e3d4c-0000-4000-8000-000000000001 # Hello World
A="http:\/\/127.0.0.1"

ini=$(SITE="$FIXTURES/site" site_ini shapes <<'INI'
[api]
enabled = true
excluded_keys = mood
[resources]
collections = true
taxonomies = true
globals = true
assets = true
navs = true
[resources.users]
[resources.collections.blog]
allowed_filters = status
[shape.entries.blog]
keys = id, title, tags, reviewer, related, mood
rename.title = headline
rename.related = mood
keys.tags = slug, title
keys.reviewer = name
[shape.entries]
drop = content, blocks, story, summary
[shape.terms]
keys = slug, title
rename.slug = key
[shape.users]
rename.name = full_name
[shape.globals]
drop = phone, notice
rename.site_name = name
[shape.assets]
keys = id, alt
[shape.pages.pages]
keys = title, url
rename.url = href
INI
)
start_server "$ini" /api
B=/api/collections/blog/entries

# --- the INI's shapes ---
# mood is an excluded key: neither kept nor renamed onto, it never shows.
expect "shape: keys, order, rename, a relation's keys" GET "$B/$L" 200 \
	"{\"data\":{\"id\":\"$L\",\"headline\":\"Launch\",\"tags\":[{\"slug\":\"news\",\"title\":\"News\"}],\"reviewer\":[{\"name\":\"Ada Lovelace\"}]}}"
expect "shape: fields choose among the shape's keys" GET "$B/$L?fields=headline,reviewer,title" 200 \
	'{"data":{"headline":"Launch","reviewer":[{"name":"Ada Lovelace"}],"title":null}}'
expect "shape: a collection without its own takes the type's" GET '/api/collections/pages/entries/about?fields=title,content,slug' 200 \
	'{"data":{"title":"About","content":null,"slug":"about"}}'
expect_data "shape: a list" "$B?fields=headline&filter[status]=any&sort=title&limit=2" \
	'[{"headline":"Far Future"},{"headline":"Hallo Welt"}]'
expect "shape: a term" GET '/api/taxonomies/tags/terms/news' 200 '{"data":{"key":"news","title":"News"}}'
expect_data "shape: terms" '/api/taxonomies/tags/terms?site=en&sort=slug' \
	'[{"key":"big-ideas","title":"Big Ideas"},{"key":"launches","title":"Launches"},{"key":"news","title":"News"}]'
expect "shape: a user" GET '/api/users/user-ada?fields=full_name,email,password' 200 \
	'{"data":{"full_name":"Ada Lovelace","email":"ada@example.com"}}'
expect "shape: a global set" GET '/api/globals/settings' 200 \
	"{\"data\":{\"open\":true,\"name\":\"Example\",\"handle\":\"settings\",\"api_url\":\"$A:$PORT\/api\/globals\/settings\"}}"
expect "shape: an asset" GET '/api/assets/assets/img/dot.gif' 200 \
	'{"data":{"id":"assets::img\/dot.gif","alt":"A dot"}}'
expect "shape: tree pages" GET '/api/collections/pages/tree?max_depth=1' 200 \
	'{"data":[{"page":{"title":"Home","href":"\/"},"depth":1,"children":[]},{"page":{"title":"About","href":"\/about"},"depth":1,"children":[]},{"page":{"title":"Contact","href":"\/contact"},"depth":1,"children":[]}]}'
stop_server

# --- fields and include through relations (no shape) ---
ini=$(SITE="$FIXTURES/site" site_ini relations <<'INI'
[api]
enabled = true
[resources]
collections = true
taxonomies = true
assets = true
[resources.users]
[resources.collections.blog]
allowed_filters = title
INI
)
start_server "$ini" /api
expect "fields: inside relations" GET "$B/$L?fields=title,tags.slug,reviewer.name,hero.alt,related.title,seo.noindex" 200 \
	'{"data":{"title":"Launch","tags":[{"slug":"news"}],"reviewer":[{"name":"Ada Lovelace"}],"hero":{"alt":"A dot"},"related":{"title":"Hello World"},"seo":{"noindex":true}}}'
expect "fields: a relation whole and inside" GET "$B/$L?fields=related.title,related" 200 \
	"{\"data\":{\"related\":{\"id\":\"$H\",\"title\":\"Hello World\",\"url\":\"\/blog\/2024\/hello-world\",\"permalink\":\"$A:$PORT\/blog\/2024\/hello-world\",\"api_url\":\"$A:$PORT\/api\/collections\/blog\/entries\/$H\"}}}"
# Its terms as the entry itself shows them: in the blog, the blog's URLs
# (main's term URLs of a collection, Statamic's).
expect "include: a related entry whole" GET "$B/$L?fields=related.title,related.content,related.tags&include=related" 200 \
	"{\"data\":{\"related\":{\"title\":\"Hello World\",\"content\":\"<p>First post.<\/p>\\n\",\"tags\":[{\"id\":\"tags::news\",\"title\":\"News\",\"slug\":\"news\",\"url\":\"\/blog\/tags\/news\",\"permalink\":\"$A:$PORT\/blog\/tags\/news\",\"api_url\":\"$A:$PORT\/api\/taxonomies\/tags\/terms\/news\"}]}}}"
expect "include: its relations too" GET "$B/$L?fields=related.tags.color,related.tags.entries_count&include=related.tags" 200 \
	'{"data":{"related":{"tags":[{"color":"grey","entries_count":2}]}}}'
expect "include: terms, users and assets whole" GET "$B/$L?fields=tags.color,reviewer.is_super,hero.mime_type&include=tags,reviewer,hero" 200 \
	'{"data":{"tags":[{"color":"grey"}],"reviewer":[{"is_super":true}],"hero":{"mime_type":"image\/gif"}}}'
expect "depth: every relation, two levels" GET "$B/$L?fields=related.tags.color,tags.color&depth=2" 200 \
	'{"data":{"related":{"tags":[{"color":"grey"}]},"tags":[{"color":"grey"}]}}'
expect "depth: one level leaves the next short" GET "$B/$L?fields=related.tags.color,related.tags.slug&depth=1" 200 \
	'{"data":{"related":{"tags":[{"color":null,"slug":"news"}]}}}'
expect_data "include: on a list" "$B?fields=title,related.slug&include=related&filter[title]=launch" \
	'[{"title":"Launch","related":{"slug":"hello-world"}}]'
for d in 0 4 x; do
	expect "depth: '$d' is out of bounds" GET "$B/$L?depth=$d" 400 \
		"{\"message\":\"The depth parameter must be a whole number from 1 to 3, not \\\"$d\\\".\"}"
done
expect "include: four relations deep" GET "$B/$L?include=a.b.c.d" 400 \
	'{"message":"The include parameter reaches more than 3 relations deep: a.b.c.d"}'
stop_server

# A cycle: Hello World relates back to Launch. Written whole from Launch,
# Hello World's own relation to Launch stays short.
CYCLE="$T/cycle-site"
cp -r "$FIXTURES/site" "$CYCLE"
sed -i "s/^author: 'Ada'$/author: 'Ada'\nrelated: $L/" "$CYCLE/content/collections/blog/en/2024-01-10.hello-world.md"
ini=$(SITE="$CYCLE" site_ini cycle <<'INI'
[api]
enabled = true
[resources]
collections = true
INI
)
start_server "$ini" /api
expect "include: a cycle is cut" GET "$B/$L?fields=related.title,related.related&depth=3" 200 \
	"{\"data\":{\"related\":{\"title\":\"Hello World\",\"related\":{\"id\":\"$L\",\"title\":\"Launch\",\"url\":\"\/blog\/2024\/launch\",\"permalink\":\"$A:$PORT\/blog\/2024\/launch\",\"api_url\":\"$A:$PORT\/api\/collections\/blog\/entries\/$L\"}}}}"
stop_server

# A related item the request could not read on its own stays short: users
# are off here, so a reviewer is its short object.
ini=$(SITE="$FIXTURES/site" site_ini relations-closed <<'INI'
[api]
enabled = true
[resources]
collections = true
INI
)
start_server "$ini" /api
expect "include: a user when users are off" GET "$B/$L?fields=reviewer&include=reviewer" 200 \
	"{\"data\":{\"reviewer\":[{\"id\":\"user-ada\",\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\",\"api_url\":\"$A:$PORT\/api\/users\/user-ada\"}]}}"
stop_server

# --- shape plug-ins ---
BUILT=$(dirname "$CMS_API_BIN")
SHAPE_LOG="$T/shape-worker.log"
# plugin_ini NAME PLUGIN [more [shape] lines on stdin]
shape_plugin_ini() {
	{
		printf '[api]\nenabled = true\n[resources]\ncollections = true\n'
		printf '[resources.collections.blog]\nallowed_filters = title\n'
		printf '[shape]\nplugin = %s\n' "$2"
		cat
	} | SITE="$TOP_EXAMPLE" WORKER_LOG="$SHAPE_LOG" site_ini "$1"
}
TOP_EXAMPLE="$T/example-site"
cp -r "$HERE/../../example/site" "$TOP_EXAMPLE"
ini=$(shape_plugin_ini reading-time "$BUILT/examples/shape-plugin/reading-time.so" <<'INI'
words_per_minute = 20
INI
)
start_server "$ini" /api
expect_data "plug-in: the example adds reading_time" "$B?fields=title,reading_time&limit=2" \
	'[{"title":"Keeping a Starter Alive","reading_time":4},{"title":"Three Loaves for Winter","reading_time":2}]'
expect_data "plug-in: every collection's entries" '/api/collections/recipes/entries?fields=title,reading_time&limit=1' \
	'[{"title":"Cinnamon Buns","reading_time":2}]'
stop_server

ini=$(shape_plugin_ini secrets "$BUILT/tests/shape-plugins/secrets.so" </dev/null)
start_server "$ini" /api
expect_data "plug-in: never a secret key" "$B?fields=title,password,password_hash,extra&limit=1" \
	'[{"title":"Keeping a Starter Alive","password":null,"password_hash":null,"extra":true}]'
request GET "$B?limit=1"
case "$BODY" in *'"password'*) fail "plug-in: a secret went out" "$BODY" ;; *'"extra":true}'*) pass ;; *) fail "plug-in: secrets" "$BODY" ;; esac
stop_server

: >"$SHAPE_LOG"
ini=$(shape_plugin_ini not-json "$BUILT/tests/shape-plugins/not-json.so" </dev/null)
start_server "$ini" /api
expect_data "plug-in: not JSON leaves the item as it is" "$B?fields=title&limit=1" \
	'[{"title":"Keeping a Starter Alive"}]'
for _ in $(seq 1 20); do grep -q 'shape plug-in: its item of entries is not JSON' "$SHAPE_LOG" && break; sleep 0.1; done
if grep -q 'shape plug-in: its item of entries is not JSON' "$SHAPE_LOG"; then pass; else
	fail "plug-in: not JSON is logged" "$(cat "$SHAPE_LOG")"; fi
stop_server

# A plug-in that crashes ends its worker and no other: the web server
# answers that one request with an error, the next ones are answered, and
# the log names the plug-in and the item.
: >"$SHAPE_LOG"
ini=$(shape_plugin_ini crash "$BUILT/tests/shape-plugins/crash.so" <<'INI'
crash_on = "title":"Rye Week"
INI
)
start_server "$ini" /api
request GET "$B?filter[title]=rye%20week"
case "$STATUS" in 5??|'') pass ;; *) fail "plug-in: a crash is an error answer" "$STATUS $BODY" ;; esac
until_answer "plug-in: the others answer on" "$B?fields=title&limit=1" '*"title":"Keeping a Starter Alive"*' 10
for _ in $(seq 1 30); do grep -q 'crashed this worker with signal 11' "$SHAPE_LOG" && break; sleep 0.1; done
if grep -q "error: the shape plug-in $BUILT/tests/shape-plugins/crash.so (test-shape) crashed this worker with signal 11 while rewriting an item of entries blog" "$SHAPE_LOG"; then
	pass
else
	fail "plug-in: the crash is logged, naming the plug-in" "$(cat "$SHAPE_LOG")"
fi
stop_server

ini=$(shape_plugin_ini check-abi "$BUILT/tests/shape-plugins/wrong-abi.so" </dev/null)
expect_cmd "plug-in: check refuses another ABI" 1 \
	"$ini:19: [shape] plugin: $BUILT/tests/shape-plugins/wrong-abi.so is a shape plug-in of ABI version 2, but this cms-api loads ABI version 1 only: rebuild it against this cms-api's <cms-api/shape.h>
1 problem found" \
	"$CMS_API_BIN" -c "$ini" check
