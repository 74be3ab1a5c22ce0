# Entries through the web server: the list with filters, sort, pagination and
# fields, and one entry by id or slug.

ini=$(SITE="$FIXTURES/site" site_ini entries <<INI
[api]
enabled = true
[resources]
collections = true
[resources.collections.blog]
allowed_filters = title, status, site, rating, taxonomy:tags
INI
)
start_server "$ini" /api
B="http:\/\/127.0.0.1:$PORT\/api\/collections\/blog\/entries"
NOT_FOUND='{"message":"Not found."}'

# page_json QUERY-IN-LINKS LAST TOTAL TO: links and meta of a one-page list.
one_page() {
	local q=$1 total=$2
	local u="$B?$q&limit=25&page=1"
	printf '"links":{"first":"%s","last":"%s","prev":null,"next":null},"meta":{"current_page":1,"from":%s,"last_page":1,"links":[{"url":null,"label":"&laquo; Previous","page":null,"active":false},{"url":"%s","label":"1","page":1,"active":true},{"url":null,"label":"Next &raquo;","page":null,"active":false}],"path":"%s","per_page":25,"to":%s,"total":%s}' \
		"$u" "$u" "$([ "$total" = 0 ] && echo null || echo 1)" "$u" "$B" "$([ "$total" = 0 ] && echo null || echo "$total")" "$total"
}

expect "entries: published only, in path order, fields" GET \
	'/api/collections/blog/entries?fields=id,title' 200 \
	"{\"data\":[{\"id\":\"1f2e3d4c-0000-4000-8000-000000000001\",\"title\":\"Hello World\"},{\"id\":\"1f2e3d4c-0000-4000-8000-000000000003\",\"title\":\"Launch\"},{\"id\":\"cms-api-09f8fdf6d07dd302\",\"title\":\"No id\"},{\"id\":\"1f2e3d4c-0000-4000-8000-000000000005\",\"title\":\"Undated\"}],$(one_page 'fields=id%2Ctitle' 4)}"
expect "entries: sort -date, fields[]" GET \
	'/api/collections/blog/entries?sort=-date&fields[]=title&fields[]=date' 200 \
	"{\"data\":[{\"title\":\"No id\",\"date\":\"2024-04-01T00:00:00.000000Z\"},{\"title\":\"Launch\",\"date\":\"2024-02-01T14:30:00.000000Z\"},{\"title\":\"Hello World\",\"date\":\"2024-01-10T00:00:00.000000Z\"},{\"title\":\"Undated\",\"date\":\"2023-11-14T00:00:00.000000Z\"}],$(one_page 'sort=-date&fields%5B%5D=title&fields%5B%5D=date' 4)}"
expect "entries: contains filter" GET \
	'/api/collections/blog/entries?filter[title:contains]=o&fields=title' 200 \
	"{\"data\":[{\"title\":\"Hello World\"},{\"title\":\"No id\"}],$(one_page 'filter%5Btitle%3Acontains%5D=o&fields=title' 2)}"
expect "entries: every status in one site" GET \
	'/api/collections/blog/entries?filter[status]=any&filter[site]=de&fields=title,status,locale' 200 \
	"{\"data\":[{\"title\":\"Hallo Welt\",\"status\":\"draft\",\"locale\":\"de\"}],$(one_page 'filter%5Bstatus%5D=any&filter%5Bsite%5D=de&fields=title%2Cstatus%2Clocale' 1)}"
expect "entries: scheduled ones on request" GET \
	'/api/collections/blog/entries?filter[status:is]=scheduled&fields=title' 200 \
	"{\"data\":[{\"title\":\"Far Future\"}],$(one_page 'filter%5Bstatus%3Ais%5D=scheduled&fields=title' 1)}"
expect "entries: taxonomy filter" GET \
	'/api/collections/blog/entries?filter[taxonomy:tags:in]=news&fields=title' 200 \
	"{\"data\":[{\"title\":\"Hello World\"},{\"title\":\"Launch\"}],$(one_page 'filter%5Btaxonomy%3Atags%3Ain%5D=news&fields=title' 2)}"
expect "entries: numeric filter" GET '/api/collections/blog/entries?filter[rating:gte]=3&fields=title' 200 \
	"{\"data\":[{\"title\":\"Launch\"}],$(one_page 'filter%5Brating%3Agte%5D=3&fields=title' 1)}"
expect "entries: unknown field is null" GET '/api/collections/blog/entries?filter[rating:gte]=3&fields=title,nope' 200 \
	"{\"data\":[{\"title\":\"Launch\",\"nope\":null}],$(one_page 'filter%5Brating%3Agte%5D=3&fields=title%2Cnope' 1)}"

request GET '/api/collections/blog/entries?limit=1&page=2&fields=title'
case "$BODY" in
'{"data":[{"title":"Launch"}],"links":{"first":"'"$B"'?limit=1&fields=title&page=1","last":"'"$B"'?limit=1&fields=title&page=4","prev":"'"$B"'?limit=1&fields=title&page=1","next":"'"$B"'?limit=1&fields=title&page=3"},"meta":{"current_page":2,"from":2,"last_page":4,'*'"per_page":1,"to":2,"total":4}}') pass ;;
*) fail "entries: page 2 of 4" "$BODY" ;;
esac

expect "entries: forbidden filters" GET '/api/collections/blog/entries?filter[author]=x&filter[slug:is]=y&filter[author:not]=z' 422 \
	'{"message":"Forbidden filters: author, slug, author"}'
expect "entries: forbidden filter" GET '/api/collections/pages/entries?filter[title]=x' 422 \
	'{"message":"Forbidden filter: title"}'
expect "entries: unknown condition" GET '/api/collections/blog/entries?filter[title:bogus]=x' 400 \
	'{"message":"Unknown filter condition [bogus] in filter[title:bogus]"}'
expect "entries: bad limit" GET '/api/collections/blog/entries?limit=abc' 400 \
	'{"message":"The limit parameter must be a whole number from 1 to 1000, not \"abc\"."}'
expect "entries: limit over max_limit" GET '/api/collections/blog/entries?limit=1001' 400 \
	'{"message":"The limit parameter must be a whole number from 1 to 1000, not \"1001\"."}'
expect "entries: bad page" GET '/api/collections/blog/entries?page=0' 400 \
	'{"message":"The page parameter must be a whole number from 1, not \"0\"."}'
expect "entries: unknown collection" GET /api/collections/nope/entries 404 "$NOT_FOUND"

expect "entry: by id" GET '/api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000001?fields=title,slug,uri,permalink,api_url' 200 \
	"{\"data\":{\"title\":\"Hello World\",\"slug\":\"hello-world\",\"uri\":\"\/blog\/2024\/hello-world\",\"permalink\":\"http:\/\/127.0.0.1:$PORT\/blog\/2024\/hello-world\",\"api_url\":\"$B\/1f2e3d4c-0000-4000-8000-000000000001\"}}"
expect "entry: by slug" GET '/api/collections/pages/entries/team?fields=id,title,order,url' 200 \
	'{"data":{"id":"team","title":"Team","order":3,"url":"\/about\/team"}}'
expect "entry: a slug in ?site=" GET '/api/collections/blog/entries/hallo-welt?site=de&fields=id' 404 "$NOT_FOUND"
expect "entry: scheduled entries show" GET '/api/collections/blog/entries/far-future?fields=status' 200 \
	'{"data":{"status":"scheduled"}}'
expect "entry: drafts do not" GET /api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000002 404 "$NOT_FOUND"
expect "entry: another collection's id" GET /api/collections/pages/entries/1f2e3d4c-0000-4000-8000-000000000001 404 "$NOT_FOUND"
request GET /api/collections/pages/entries/home
case "$BODY" in
'{"data":{"api_url":"http:\/\/127.0.0.1:'"$PORT"'\/api\/collections\/pages\/entries\/home","blueprint":{"title":"Page","handle":"page"},"collection":{"title":"Pages","handle":"pages"},"content":"<p>Welcome.<\/p>\n","date":null,"id":"home","is_entry":true,"last_modified":"'*'","locale":"en","mount":{"title":"Docs & Guides","handle":"docs"},"order":1,"origin_id":null,"permalink":"http:\/\/127.0.0.1:'"$PORT"'","private":false,"published":true,"slug":"home","status":"published","title":"Home","updated_at":"'*'","updated_by":null,"uri":"\/","url":"\/"}}') pass ;;
*) fail "entry: every key in order" "$BODY" ;;
esac
stop_server

start_server "$ini" /api
B="http:\/\/127.0.0.1:$PORT\/api\/collections\/blog\/entries"
expect "entries: ?site= keeps one site" GET '/api/collections/blog/entries?site=de&filter[status]=any&fields=title' 200 \
	"{\"data\":[{\"title\":\"Hallo Welt\"}],$(one_page 'site=de&filter%5Bstatus%5D=any&fields=title' 1)}"
expect "entries: an unknown ?site=" GET '/api/collections/blog/entries?site=xx' 404 "$NOT_FOUND"
expect "entries: taxonomy not" GET '/api/collections/blog/entries?filter[taxonomy:tags:not]=news&fields=title' 200 \
	"{\"data\":[{\"title\":\"No id\"},{\"title\":\"Undated\"}],$(one_page 'filter%5Btaxonomy%3Atags%3Anot%5D=news&fields=title' 2)}"
expect "entries: taxonomy all" GET '/api/collections/blog/entries?filter[taxonomy:tags:all]=news,launches&fields=title' 200 \
	"{\"data\":[],$(one_page 'filter%5Btaxonomy%3Atags%3Aall%5D=news%2Claunches&fields=title' 0)}"
expect "entries: bad taxonomy modifier" GET '/api/collections/blog/entries?filter[taxonomy:tags:some]=news' 400 \
	'{"message":"Unknown taxonomy filter modifier [some] in filter[taxonomy:tags:some]"}'
stop_server
