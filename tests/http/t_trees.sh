# Collection trees and navigations through the web server.

ini=$(SITE="$FIXTURES/site" site_ini trees <<INI
[api]
enabled = true
[resources]
collections = true
navs = true
[resources.collections.pages]
allowed_filters = title
INI
)
start_server "$ini" /api
NOT_FOUND='{"message":"Not found."}'
expect "tree: pages with children" GET '/api/collections/pages/tree?fields=title,url,entry_id' 200 \
	'{"data":[{"page":{"title":"Home","url":"\/","entry_id":"home"},"depth":1,"children":[]},{"page":{"title":"About","url":"\/about","entry_id":"about"},"depth":1,"children":[{"page":{"title":"Team","url":"\/about\/team","entry_id":"team"},"depth":2,"children":[]}]},{"page":{"title":"Contact","url":"\/contact","entry_id":"contact"},"depth":1,"children":[]}]}'
expect "tree: max_depth" GET '/api/collections/pages/tree?fields[]=title&max_depth=1' 200 \
	'{"data":[{"page":{"title":"Home"},"depth":1,"children":[]},{"page":{"title":"About"},"depth":1,"children":[]},{"page":{"title":"Contact"},"depth":1,"children":[]}]}'
expect "tree: a filter prunes a branch" GET '/api/collections/pages/tree?fields=title&filter[title:not]=about' 200 \
	'{"data":[{"page":{"title":"Home"},"depth":1,"children":[]},{"page":{"title":"Contact"},"depth":1,"children":[]}]}'
expect "tree: forbidden filter" GET '/api/collections/pages/tree?filter[slug]=x' 422 '{"message":"Forbidden filter: slug"}'
for depth in 0 -1 abc 1x ''; do
	expect "tree: bad max_depth '$depth'" GET "/api/collections/pages/tree?max_depth=$depth" 400 \
		"{\"message\":\"The max_depth parameter must be a whole number from 1, not \\\"$depth\\\".\"}"
	expect "nav tree: bad max_depth '$depth'" GET "/api/navs/main/tree?max_depth=$depth" 400 \
		"{\"message\":\"The max_depth parameter must be a whole number from 1, not \\\"$depth\\\".\"}"
done
expect "tree: not structured" GET /api/collections/blog/tree 404 "$NOT_FOUND"
expect "tree: a site without it" GET '/api/collections/pages/tree?site=de' 404 "$NOT_FOUND"
expect "tree: an unknown site" GET '/api/collections/pages/tree?site=xx' 404 "$NOT_FOUND"

N="http:\/\/127.0.0.1:$PORT\/api\/navs\/main"
expect "navs: index" GET /api/navs 200 \
	"{\"data\":[{\"handle\":\"main\",\"title\":\"Main Menu\",\"max_depth\":2,\"expects_root\":false,\"api_url\":\"$N\"}]}"
expect "navs: show" GET /api/navs/main 200 \
	"{\"data\":{\"handle\":\"main\",\"title\":\"Main Menu\",\"max_depth\":2,\"expects_root\":false,\"api_url\":\"$N\"}}"
expect "navs: tree with entry, link and data" GET '/api/navs/main/tree?fields=id,title,url,entry_id,icon' 200 \
	'{"data":[{"page":{"id":"nav-1","title":"Home","url":"\/","entry_id":"home","icon":null},"depth":1,"children":[]},{"page":{"id":"nav-2","title":"Docs","url":"\/docs","entry_id":null,"icon":"book"},"depth":1,"children":[{"page":{"id":"nav-3","title":"About","url":"\/about","entry_id":"about","icon":null},"depth":2,"children":[]}]}]}'
expect "navs: filters are ignored" GET '/api/navs/main/tree?fields=id&max_depth=1&filter[title]=x' 200 \
	'{"data":[{"page":{"id":"nav-1"},"depth":1,"children":[]},{"page":{"id":"nav-2"},"depth":1,"children":[]}]}'
request GET '/api/navs/main/tree?max_depth=1'
case "$BODY" in
*'{"page":{"entry_id":null,"icon":"book","id":"nav-2","permalink":"http:\/\/127.0.0.1:'"$PORT"'\/docs","title":"Docs","uri":"\/docs","url":"\/docs"},"depth":1,"children":[]}'*) pass ;;
*) fail "navs: a link item's page" "$BODY" ;;
esac
expect "navs: no tree in that site" GET '/api/navs/main/tree?site=de' 404 "$NOT_FOUND"
expect "navs: unknown" GET /api/navs/nope/tree 404 "$NOT_FOUND"
stop_server

# The entries of a term.
ini=$(SITE="$FIXTURES/site" site_ini terms <<INI
[api]
enabled = true
[resources]
collections = true
[resources.taxonomies.tags]
[resources.collections.blog]
allowed_filters = title
INI
)
start_server "$ini" /api
T_URL="http:\/\/127.0.0.1:$PORT\/api\/taxonomies\/tags\/terms\/news\/entries"
request GET '/api/taxonomies/tags/terms/news/entries?fields=title&sort=-title'
case "$BODY" in
'{"data":[{"title":"Launch"},{"title":"Hello World"}],"links":{"first":"'"$T_URL"'?fields=title&sort=-title&limit=25&page=1",'*'"total":2}}') pass ;;
*) fail "term entries" "$BODY" ;;
esac
expect "term entries: a filter every collection allows" GET \
	'/api/taxonomies/tags/terms/news/entries?fields=title&filter[title:contains]=launch' 200 \
	"{\"data\":[{\"title\":\"Launch\"}],\"links\":{\"first\":\"$T_URL?fields=title&filter%5Btitle%3Acontains%5D=launch&limit=25&page=1\",\"last\":\"$T_URL?fields=title&filter%5Btitle%3Acontains%5D=launch&limit=25&page=1\",\"prev\":null,\"next\":null},\"meta\":{\"current_page\":1,\"from\":1,\"last_page\":1,\"links\":[{\"url\":null,\"label\":\"&laquo; Previous\",\"page\":null,\"active\":false},{\"url\":\"$T_URL?fields=title&filter%5Btitle%3Acontains%5D=launch&limit=25&page=1\",\"label\":\"1\",\"page\":1,\"active\":true},{\"url\":null,\"label\":\"Next &raquo;\",\"page\":null,\"active\":false}],\"path\":\"$T_URL\",\"per_page\":25,\"to\":1,\"total\":1}}"
expect "term entries: forbidden filter" GET '/api/taxonomies/tags/terms/news/entries?filter[slug]=x' 422 \
	'{"message":"Forbidden filter: slug"}'
L_URL="http:\/\/127.0.0.1:$PORT\/api\/taxonomies\/tags\/terms\/launches\/entries"
expect "term entries: a term no entry names lists none" GET \
	'/api/taxonomies/tags/terms/launches/entries?fields=title' 200 \
	"{\"data\":[],\"links\":{\"first\":\"$L_URL?fields=title&limit=25&page=1\",\"last\":\"$L_URL?fields=title&limit=25&page=1\",\"prev\":null,\"next\":null},\"meta\":{\"current_page\":1,\"from\":null,\"last_page\":1,\"links\":[{\"url\":null,\"label\":\"&laquo; Previous\",\"page\":null,\"active\":false},{\"url\":\"$L_URL?fields=title&limit=25&page=1\",\"label\":\"1\",\"page\":1,\"active\":true},{\"url\":null,\"label\":\"Next &raquo;\",\"page\":null,\"active\":false}],\"path\":\"$L_URL\",\"per_page\":25,\"to\":null,\"total\":0}}"
expect "term entries: unknown term" GET /api/taxonomies/tags/terms/nope/entries 404 '{"message":"Not found."}'
expect "term entries: unknown taxonomy" GET /api/taxonomies/nope/terms/news/entries 404 '{"message":"Not found."}'
stop_server
