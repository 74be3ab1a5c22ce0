# Taxonomies and terms through the web server: the taxonomy index and show, the
# term list (every localization, terms implied by entries, ?site=,
# filters, sort, fields, pages) and one term by slug.

TSITE="$T/terms-site"
cp -r "$FIXTURES/site" "$TSITE"
ini=$(SITE="$TSITE" CACHE="$T/terms-cache" site_ini taxonomies <<INI
[api]
enabled = true
[resources]
collections = true
[resources.taxonomies.tags]
allowed_filters = title, site, entries_count
INI
)
start_server "$ini" /api
A="http:\/\/127.0.0.1:$PORT\/api"
S="http:\/\/127.0.0.1:$PORT"
NOT_FOUND='{"message":"Not found."}'

expect "taxonomies: index" GET /api/taxonomies 200 \
	"{\"data\":[{\"handle\":\"tags\",\"title\":\"Tags\",\"api_url\":\"$A\/taxonomies\/tags\"}]}"
expect "taxonomies: show" GET /api/taxonomies/tags 200 \
	"{\"data\":{\"handle\":\"tags\",\"title\":\"Tags\",\"api_url\":\"$A\/taxonomies\/tags\"}}"
expect "taxonomies: unknown" GET /api/taxonomies/nope 404 "$NOT_FOUND"
expect "terms: unknown taxonomy" GET /api/taxonomies/nope/terms 404 "$NOT_FOUND"

# Every key of a term, sorted: its data through the blueprint (markdown,
# a toggle nobody set, the taxonomy's inject) and the computed ones.
request GET /api/taxonomies/tags/terms/launches
case "$BODY" in
"{\"data\":{\"api_url\":\"$A\/taxonomies\/tags\/terms\/launches\",\"color\":\"red\",\"description\":\"<p>New <em>things<\/em><\/p>\n\",\"entries_count\":0,\"featured\":false,\"id\":\"tags::launches\",\"is_term\":true,\"locale\":\"en\",\"permalink\":\"$S\/tags\/launches\",\"slug\":\"launches\",\"taxonomy\":{\"title\":\"Tags\",\"handle\":\"tags\",\"uri\":\"\/tags\",\"url\":\"\/tags\",\"permalink\":\"$S\/tags\"},\"title\":\"Launches\",\"updated_at\":\"20"*"Z\",\"updated_by\":null,\"uri\":\"\/tags\/launches\",\"url\":\"\/tags\/launches\"}}") pass ;;
*) fail "term: every key in order" "$BODY" ;;
esac
expect "term: published entries counted" GET '/api/taxonomies/tags/terms/news?fields=id,title,entries_count' 200 \
	'{"data":{"id":"tags::news","title":"News","entries_count":2}}'
expect "term: a localized slug, in its site" GET '/api/taxonomies/tags/terms/nachrichten?fields=id,slug,title,locale,url,api_url' 200 \
	"{\"data\":{\"id\":\"tags::news\",\"slug\":\"nachrichten\",\"title\":\"Nachrichten\",\"locale\":\"de\",\"url\":\"\/de\/tags\/nachrichten\",\"api_url\":\"$A\/taxonomies\/tags\/terms\/nachrichten\"}}"
expect "term: ?site= picks the localization" GET '/api/taxonomies/tags/terms/news?site=de&fields=slug,title,locale' 200 \
	'{"data":{"slug":"nachrichten","title":"Nachrichten","locale":"de"}}'
expect "term: not in that site" GET '/api/taxonomies/tags/terms/big-ideas?site=de' 404 "$NOT_FOUND"
expect "term: an unknown site" GET '/api/taxonomies/tags/terms/news?site=xx' 404 "$NOT_FOUND"
expect "term: implied by an entry, titled by its value" GET '/api/taxonomies/tags/terms/big-ideas?fields=id,title,entries_count,updated_at' 200 \
	'{"data":{"id":"tags::big-ideas","title":"Big Ideas","entries_count":1,"updated_at":null}}'
expect "term: unknown slug" GET /api/taxonomies/tags/terms/nope 404 "$NOT_FOUND"
expect "term: entries and collection are never shown" GET '/api/taxonomies/tags/terms/news?fields=entries,title,collection' 200 \
	'{"data":{"title":"News"}}'
expect "term: filters are not for one term" GET '/api/taxonomies/tags/terms/news?fields=title&filter[slug]=x' 200 \
	'{"data":{"title":"News"}}'

T_TERMS="$A\/taxonomies\/tags\/terms"
# one_page QUERY TOTAL: links and meta of a one-page term list.
terms_page() {
	local q=$1 total=$2
	local u="$T_TERMS?$q&limit=25&page=1"
	printf '"links":{"first":"%s","last":"%s","prev":null,"next":null},"meta":{"current_page":1,"from":%s,"last_page":1,"links":[{"url":null,"label":"&laquo; Previous","page":null,"active":false},{"url":"%s","label":"1","page":1,"active":true},{"url":null,"label":"Next &raquo;","page":null,"active":false}],"path":"%s","per_page":25,"to":%s,"total":%s}' \
		"$u" "$u" "$([ "$total" = 0 ] && echo null || echo 1)" "$u" "$T_TERMS" "$([ "$total" = 0 ] && echo null || echo "$total")" "$total"
}
# Statamic's order (its Value index): the terms entries name, as they
# first name them (entries in path order, drafts and localizations too:
# blog/de's draft names news through its origin), then the others'
# files.
expect "terms: every localization, those entries name first" GET '/api/taxonomies/tags/terms?fields=id,slug,locale' 200 \
	"{\"data\":[{\"id\":\"tags::news\",\"slug\":\"nachrichten\",\"locale\":\"de\"},{\"id\":\"tags::news\",\"slug\":\"news\",\"locale\":\"en\"},{\"id\":\"tags::big-ideas\",\"slug\":\"big-ideas\",\"locale\":\"en\"},{\"id\":\"tags::launches\",\"slug\":\"launches\",\"locale\":\"en\"},{\"id\":\"tags::launches\",\"slug\":\"launches\",\"locale\":\"de\"}],$(terms_page 'fields=id%2Cslug%2Clocale' 5)}"
expect "terms: ?site= keeps one site's" GET '/api/taxonomies/tags/terms?site=de&fields=slug' 200 \
	"{\"data\":[{\"slug\":\"nachrichten\"},{\"slug\":\"launches\"}],$(terms_page 'site=de&fields=slug' 2)}"
expect "terms: an unknown site" GET '/api/taxonomies/tags/terms?site=xx' 404 "$NOT_FOUND"
expect "terms: filter[site]" GET '/api/taxonomies/tags/terms?filter[site]=de&fields=title' 200 \
	"{\"data\":[{\"title\":\"Nachrichten\"},{\"title\":\"Launches\"}],$(terms_page 'filter%5Bsite%5D=de&fields=title' 2)}"
expect "terms: filter and sort" GET '/api/taxonomies/tags/terms?filter[title:contains]=n&sort=-title&fields=title,locale' 200 \
	"{\"data\":[{\"title\":\"News\",\"locale\":\"en\"},{\"title\":\"Nachrichten\",\"locale\":\"de\"},{\"title\":\"Launches\",\"locale\":\"en\"},{\"title\":\"Launches\",\"locale\":\"de\"}],$(terms_page 'filter%5Btitle%3Acontains%5D=n&sort=-title&fields=title%2Clocale' 4)}"
expect "terms: a computed key filters" GET '/api/taxonomies/tags/terms?filter[entries_count:gt]=0&fields=slug' 200 \
	"{\"data\":[{\"slug\":\"news\"},{\"slug\":\"big-ideas\"}],$(terms_page 'filter%5Bentries_count%3Agt%5D=0&fields=slug' 2)}"
expect "terms: forbidden filters" GET '/api/taxonomies/tags/terms?filter[slug]=x&filter[color:is]=red' 422 \
	'{"message":"Forbidden filters: slug, color"}'
expect "terms: unknown condition" GET '/api/taxonomies/tags/terms?filter[title:bogus]=x' 400 \
	'{"message":"Unknown filter condition [bogus] in filter[title:bogus]"}'
expect "terms: bad limit" GET '/api/taxonomies/tags/terms?limit=0' 400 \
	'{"message":"The limit parameter must be a whole number from 1 to 1000, not \"0\"."}'
request GET '/api/taxonomies/tags/terms?limit=2&page=3&fields=slug'
case "$BODY" in
"{\"data\":[{\"slug\":\"launches\"}],\"links\":{\"first\":\"$T_TERMS?limit=2&fields=slug&page=1\",\"last\":\"$T_TERMS?limit=2&fields=slug&page=3\",\"prev\":\"$T_TERMS?limit=2&fields=slug&page=2\",\"next\":null},\"meta\":{\"current_page\":3,\"from\":5,\"last_page\":3,"*"\"per_page\":2,\"to\":5,\"total\":5}}") pass ;;
*) fail "terms: the last page" "$BODY" ;;
esac
expect "terms: past the last page" GET '/api/taxonomies/tags/terms?limit=2&page=4&fields=slug' 200 \
	"{\"data\":[],\"links\":{\"first\":\"$T_TERMS?limit=2&fields=slug&page=1\",\"last\":\"$T_TERMS?limit=2&fields=slug&page=3\",\"prev\":\"$T_TERMS?limit=2&fields=slug&page=3\",\"next\":null},\"meta\":{\"current_page\":4,\"from\":null,\"last_page\":3,\"links\":[{\"url\":\"$T_TERMS?limit=2&fields=slug&page=3\",\"label\":\"&laquo; Previous\",\"page\":3,\"active\":false},{\"url\":\"$T_TERMS?limit=2&fields=slug&page=1\",\"label\":\"1\",\"page\":1,\"active\":false},{\"url\":\"$T_TERMS?limit=2&fields=slug&page=2\",\"label\":\"2\",\"page\":2,\"active\":false},{\"url\":\"$T_TERMS?limit=2&fields=slug&page=3\",\"label\":\"3\",\"page\":3,\"active\":false},{\"url\":null,\"label\":\"Next &raquo;\",\"page\":null,\"active\":false}],\"path\":\"$T_TERMS\",\"per_page\":2,\"to\":null,\"total\":5}}"

# HEAD: the headers of GET, no body.
out=$(raw_request 'HEAD /api/taxonomies/tags/terms/news HTTP/1.0\r\nHost: x\r\n\r\n' | tr -d '\r')
case "$out" in
"HTTP/1."[01]" 200 OK"*"Content-Type: application/json"*) case "$out" in *'"data"'*) fail "terms: HEAD has a body" "$out" ;; *) pass ;; esac ;;
*) fail "terms: HEAD answers" "$out" ;;
esac

# A changed term file and a new term are seen within a second or so.
sed -i 's/^title: Launches$/title: Rocket Launches/' "$TSITE/content/taxonomies/tags/launches.yaml"
until_answer "terms: an edited term shows" '/api/taxonomies/tags/terms/launches?fields=title' \
	'{"data":{"title":"Rocket Launches"}}'
printf 'title: Fresh\n' >"$TSITE/content/taxonomies/tags/fresh.yaml"
until_answer "terms: a new term shows" '/api/taxonomies/tags/terms/fresh?fields=id,title' \
	'{"data":{"id":"tags::fresh","title":"Fresh"}}'
rm "$TSITE/content/taxonomies/tags/fresh.yaml"
until_answer "terms: a deleted term goes" /api/taxonomies/tags/terms/fresh "$NOT_FOUND"
stop_server
