# What frontends ask Statamic for in vain, through the web server: OR
# groups of filters, filters through relations, query scopes from the INI,
# tree filters and search (fields and includes through relations, and
# shapes: t_shapes.sh).

ini=$(SITE="$FIXTURES/site" site_ini queries <<'INI'
[api]
enabled = true
[resources]
collections = true
taxonomies = true
assets = true
[resources.users]
[resources.collections.blog]
allowed_filters = title, featured, rating, status, tags.slug, tags.title, related.title, related.tags.slug, reviewer.name, hero.alt, related.secret
[resources.taxonomies.tags]
allowed_filters = title, slug
[scope.featured]
filter[featured] = true
[scope.titled_l]
filter[title:contains] = l
sort = -title
[scope.people]
resources = users
INI
)
start_server "$ini" /api
B=/api/collections/blog/entries

# --- OR groups ---
expect_data "or: two groups" "$B?fields=title&filter[or][0][title:contains]=hello&filter[or][1][title]=launch" \
	'[{"title":"Hello World"},{"title":"Launch"}]'
expect_data "or: a group of two filters" "$B?fields=title&filter[or][0][title:contains]=l&filter[or][0][rating:gt]=3&filter[or][1][title]=undated" \
	'[{"title":"Launch"},{"title":"Undated"}]'
expect_data "or: with a filter every item must pass" "$B?fields=title&filter[title:contains]=o&filter[or][0][title:contains]=hello&filter[or][1][title]=launch" \
	'[{"title":"Hello World"}]'
expect_data "or: a status in a group lifts the published default" "$B?fields=title&filter[or][0][status]=scheduled&filter[or][1][title]=launch" \
	'[{"title":"Launch"},{"title":"Far Future"}]'
expect "or: every field allow-listed" GET "$B?filter[or][0][title]=a&filter[or][1][slug]=b" 422 \
	'{"message":"Forbidden filter: slug"}'
expect "or: one level deep" GET "$B?filter[or][0][or][1][title]=a" 400 \
	'{"message":"Malformed filter group filter[or][0][or][1][title]: write filter[or][N][field:condition], N a number, one level deep."}'
expect "or: an unknown condition" GET "$B?filter[or][0][title:nearly]=a" 400 \
	'{"message":"Unknown filter condition [nearly] in filter[title:nearly]"}'
expect_data "or: on terms" "/api/taxonomies/tags/terms?site=en&fields=slug&filter[or][0][slug]=news&filter[or][1][title]=launches&sort=slug" \
	'[{"slug":"launches"},{"slug":"news"}]'

# --- through relations ---
expect_data "relation: a term's slug" "$B?fields=title&filter[tags.slug]=news" \
	'[{"title":"Hello World"},{"title":"Launch"}]'
expect_data "relation: a term's title" "$B?fields=title&filter[tags.title:starts_with]=new" \
	'[{"title":"Hello World"},{"title":"Launch"}]'
expect_data "relation: an entry's title" "$B?fields=title&filter[related.title:contains]=world" \
	'[{"title":"Launch"}]'
expect_data "relation: two relations deep" "$B?fields=title&filter[related.tags.slug]=news" \
	'[{"title":"Launch"}]'
expect_data "relation: a user's name" "$B?fields=title&filter[reviewer.name:contains]=lovelace" \
	'[{"title":"Launch"}]'
expect_data "relation: an asset's alt" "$B?fields=title&filter[hero.alt:is_empty]=false" \
	'[{"title":"Launch"}]'
expect_data "relation: nothing related reads as missing" "$B?fields=title&filter[related.title:is_empty]=true&filter[title:contains]=o" \
	'[{"title":"Hello World"},{"title":"No id"}]'
expect "relation: the dotted field allow-listed as written" GET "$B?filter[tags.id]=x" 422 \
	'{"message":"Forbidden filter: tags.id"}'
expect_data "relation: OR of two relations" "$B?fields=title&filter[or][0][tags.slug]=news&filter[or][1][title]=undated" \
	'[{"title":"Hello World"},{"title":"Launch"},{"title":"Undated"}]'

# --- query scopes ---
expect_data "scope: its filter" "$B?fields=title&query_scope=featured" '[{"title":"Launch"}]'
expect_data "scope: its sort" "$B?fields=title&query_scope=titled_l" \
	'[{"title":"Launch"},{"title":"Hello World"}]'
expect_data "scope: the request's sort wins" "$B?fields=title&query_scope=titled_l&sort=title" \
	'[{"title":"Hello World"},{"title":"Launch"}]'
expect_data "scope: two, and a filter of the request" "$B?fields=title&query_scope=featured,titled_l&filter[rating:gte]=4" \
	'[{"title":"Launch"}]'
expect_data "scope: Statamic's form" "$B?fields=title&query_scope[featured][x]=1" '[{"title":"Launch"}]'
expect "scope: unknown" GET "$B?query_scope=nope" 422 '{"message":"Forbidden query scope: nope"}'
expect "scope: not for this list" GET "$B?query_scope=people,nope" 422 \
	'{"message":"Forbidden query scopes: people, nope"}'
expect "scope: filters are checked first" GET "$B?query_scope=nope&filter[slug]=x" 422 \
	'{"message":"Forbidden filter: slug"}'
expect_data "scope: on users" "/api/users?fields=id&query_scope=people" \
	'[{"id":"user-ada"},{"id":"user-bob"}]'
stop_server

# A related item the request could not read on its own is never read by a
# filter: users off, the reviewer's name is missing.
ini=$(SITE="$FIXTURES/site" site_ini queries-closed <<'INI'
[api]
enabled = true
[resources]
collections = true
[resources.collections.blog]
allowed_filters = reviewer.name, tags.slug
INI
)
start_server "$ini" /api
expect_data "relation: users off" "$B?fields=title&filter[reviewer.name:contains]=lovelace" '[]'
expect_data "relation: taxonomies off" "$B?fields=title&filter[tags.slug]=news" '[]'
stop_server

# --- tree filters: keep=ancestors ---
ini=$(SITE="$FIXTURES/site" site_ini tree-filters <<'INI'
[api]
enabled = true
[resources]
collections = true
navs = true
[resources.collections.pages]
allowed_filters = title
[resources.navs.main]
allowed_filters = title, url
INI
)
start_server "$ini" /api
expect "tree: Statamic's filter cuts a page's branch" GET '/api/collections/pages/tree?fields=title&filter[title]=team' 200 \
	'{"data":[]}'
expect "tree: keep=ancestors keeps the page and the way to it" GET '/api/collections/pages/tree?fields=title&filter[title]=team&keep=ancestors' 200 \
	'{"data":[{"page":{"title":"About"},"depth":1,"children":[{"page":{"title":"Team"},"depth":2,"children":[]}]}]}'
expect "tree: keep=ancestors, and no page below one kept" GET '/api/collections/pages/tree?fields=title&filter[title]=about&keep=ancestors' 200 \
	'{"data":[{"page":{"title":"About"},"depth":1,"children":[]}]}'
expect "tree: keep=ancestors within max_depth" GET '/api/collections/pages/tree?fields=title&filter[title]=team&keep=ancestors&max_depth=1' 200 \
	'{"data":[]}'
expect "tree: keep=ancestors, OR groups" GET '/api/collections/pages/tree?fields=title&filter[or][0][title]=team&filter[or][1][title]=contact&keep=ancestors' 200 \
	'{"data":[{"page":{"title":"About"},"depth":1,"children":[{"page":{"title":"Team"},"depth":2,"children":[]}]},{"page":{"title":"Contact"},"depth":1,"children":[]}]}'
expect "tree: keep is ancestors or nothing" GET '/api/collections/pages/tree?keep=all' 400 \
	'{"message":"The keep parameter must be \"ancestors\", not \"all\"."}'
expect "nav tree: filters still ignored without keep" GET '/api/navs/main/tree?fields=title&max_depth=1&filter[title]=about' 200 \
	'{"data":[{"page":{"title":"Home"},"depth":1,"children":[]},{"page":{"title":"Docs"},"depth":1,"children":[]}]}'
expect "nav tree: keep=ancestors" GET '/api/navs/main/tree?fields=title&filter[title]=about&keep=ancestors' 200 \
	'{"data":[{"page":{"title":"Docs"},"depth":1,"children":[{"page":{"title":"About"},"depth":2,"children":[]}]}]}'
expect "nav tree: keep=ancestors on a link" GET '/api/navs/main/tree?fields=title&filter[url]=/docs&keep=ancestors' 200 \
	'{"data":[{"page":{"title":"Docs"},"depth":1,"children":[]}]}'
expect "nav tree: keep=ancestors checks the navigation's allow-list" GET '/api/navs/main/tree?filter[slug]=about&keep=ancestors' 422 \
	'{"message":"Forbidden filter: slug"}'
stop_server

# --- search: q= ---
SEARCH_SITE="$T/search-site"
cp -r "$FIXTURES/site" "$SEARCH_SITE"
SB="$SEARCH_SITE/content/collections/blog/en"
printf -- "---\nid: s-1\ntitle: 'Crème brûlée for beginners'\n---\nBaking a custard slowly.\n" >"$SB/2024-05-01.creme-brulee.md"
printf -- "---\nid: s-2\ntitle: 'Winter bread'\n---\nWe bake loaves of rye and wheat, with creme fraiche on top.\n" >"$SB/2024-05-02.winter-bread.md"
printf -- "---\nid: s-3\ntitle: Notes\n---\nOn bread, and on the oven.\n" >"$SB/2024-05-03.notes.md"
printf -- "---\nid: s-4\ntitle: 'Bread draft'\npublished: false\n---\nbread\n" >"$SB/2024-05-04.bread-draft.md"
ini=$(SITE="$SEARCH_SITE" site_ini search <<'INI'
[api]
enabled = true
[resources]
collections = true
taxonomies = true
[resources.collections.blog]
allowed_filters = title, status
search = title, content
[resources.taxonomies.tags]
search = title
INI
)
start_server "$ini" /api
expect_data "search: diacritics folded, the title's match first" "$B?fields=title&q=CREME" \
	'[{"title":"Cr\u00e8me br\u00fbl\u00e9e for beginners"},{"title":"Winter bread"}]'
expect_data "search: stemmed" "$B?fields=title&q=baked&sort=title" \
	'[{"title":"Cr\u00e8me br\u00fbl\u00e9e for beginners"},{"title":"Winter bread"}]'
expect_data "search: ranked, published only" "$B?fields=title&q=bread" \
	'[{"title":"Winter bread"},{"title":"Notes"}]'
expect_data "search: every word" "$B?fields=title&q=bread%20oven" '[{"title":"Notes"}]'
expect_data "search: sort overrides rank" "$B?fields=title&q=bread&sort=title" \
	'[{"title":"Notes"},{"title":"Winter bread"}]'
expect_data "search: with a filter" "$B?fields=title&q=bread&filter[title:contains]=note" '[{"title":"Notes"}]'
expect_data "search: with the status filter" "$B?fields=title&q=bread&filter[status]=draft" '[{"title":"Bread draft"}]'
expect_data "search: pages" "$B?fields=title&q=bread&limit=1&page=2" '[{"title":"Notes"}]'
request GET "$B?fields=title&q=bread&limit=1"
case "$BODY" in *'"total":2}}') pass ;; *) fail "search: the total counts the matches" "$BODY" ;; esac
expect_data "search: no match" "$B?fields=title&q=pineapple" '[]'
expect_data "search: blank asks nothing" "$B?fields=title&q=%20&filter[title]=notes" '[{"title":"Notes"}]'
expect_data "search: FTS5's syntax is only words" "$B?fields=title&q=%22bread%20OR%20NEAR(*%20-" '[]'
expect_data "search: terms" "/api/taxonomies/tags/terms?site=en&fields=title&q=idea" '[{"title":"Big Ideas"}]'
request GET '/api/collections/pages/entries?fields=title&limit=2'
unsearched=$BODY
request GET '/api/collections/pages/entries?fields=title&limit=2&q=zzz'
# The same answer but its links, which keep q.
if [ "$STATUS" = 200 ] && [ "${BODY%%,\"links\"*}" = "${unsearched%%,\"links\"*}" ] &&
	[ "${unsearched#\{\"data\":\[\{}" != "$unsearched" ]; then
	pass
else
	fail "search: a list without search fields ignores q, as Statamic does" "$STATUS $BODY"
fi
# Kept current by the change events: an edited entry, a new one, a gone one.
printf -- "---\nid: s-3\ntitle: Notes\n---\nOn the oven alone.\n" >"$SB/2024-05-03.notes.md"
printf -- "---\nid: s-5\ntitle: 'Bread rolls'\n---\nSoft.\n" >"$SB/2024-05-05.bread-rolls.md"
rm "$SB/2024-05-02.winter-bread.md"
until_answer "search: kept current with the site" "$B?fields=title&q=bread" \
	'{"data":?{"title":"Bread rolls"}?,"links":*' 10
stop_server
