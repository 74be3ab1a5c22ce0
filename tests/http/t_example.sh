# The files we ship: the commented etc/cms-api.ini parses and means what it
# says (API off), and the bundled example site serves through the web
# server, as shipped, with workers that run as a user of their own (as
# www-data would): the one step example/cms-api.ini asks for, its var/
# handed to that user, is enough for its log and its cache.

TOP="$HERE/../.."
shipped="$T/shipped.ini"
# Its site and its cache directory here (check warns of a cache directory
# workers could not use, as /var/cache/cms-api may be on this machine).
mkdir -p "$T/shipped-cache"
sed -e "s#^root = /srv/www/site#root = $TOP/example/site#" \
	-e "s#^dir = /var/cache/cms-api#dir = $T/shipped-cache#" "$TOP/etc/cms-api.ini" >"$shipped"
expect_cmd "shipped cms-api.ini is valid" 0 "$TOP/example/site/content/assets: warning: container assets: disk assets has no [disks.assets] section; it lists no files
ok: $TOP/example/site: 1 site, 3 collections, 13 entries" \
	"$CMS_API_BIN" -c "$shipped" check
NL=$'\n'
expect_cmd "shipped cms-api.ini: API off by default" 1 "Status: 404 Not Found${NL}Content-Type: application/json${NL}Cache-Control: no-cache${NL}Vary: Accept-Encoding${NL}Content-Length: 24${NL}${NL}{\"message\":\"Not found.\"}" \
	"$CMS_API_BIN" -c "$shipped" get /api/ping

EXAMPLE="$T/example"
mkdir -p "$EXAMPLE/var"
cp -r "$TOP/example/cms-api.ini" "$TOP/example/site" "$EXAMPLE/"
chmod -R a+rX "$EXAMPLE"
run_workers_unprivileged "$T/example-server"
worker_owns "$EXAMPLE/var"
start_server "$EXAMPLE/cms-api.ini" /api
expect "example: ping" GET /api/ping 200 '{"ping":"pong"}'
request GET /api/collections/pages
case "$BODY" in
'{"data":{"handle":"pages","title":"Pages","structure":{"max_depth":3,"expects_root":true},"mount":null,"api_url":'*) pass ;;
*) fail "example: pages collection" "$STATUS $BODY" ;;
esac
request GET /api/sites
case "$BODY" in
'{"data":[{"handle":"default","name":"Crumb & Co. Bakery","locale":"en_US","short_locale":"en","url":'*) pass ;;
*) fail "example: sites" "$STATUS $BODY" ;;
esac
# Every kind of content the example holds answers.
E="http:\/\/127.0.0.1:$PORT\/api"
expect "example: a taxonomy's terms" GET '/api/taxonomies/tags/terms?fields=id,entries_count&sort=id' 200 \
	"{\"data\":[{\"id\":\"tags::basics\",\"entries_count\":2},{\"id\":\"tags::seasonal\",\"entries_count\":3},{\"id\":\"tags::sourdough\",\"entries_count\":2}],$(printf '"links":{"first":"%s","last":"%s","prev":null,"next":null},"meta":{"current_page":1,"from":1,"last_page":1,"links":[{"url":null,"label":"&laquo; Previous","page":null,"active":false},{"url":"%s","label":"1","page":1,"active":true},{"url":null,"label":"Next &raquo;","page":null,"active":false}],"path":"%s","per_page":25,"to":3,"total":3}' \
		"$E\/taxonomies\/tags\/terms?fields=id%2Centries_count&sort=id&limit=25&page=1" \
		"$E\/taxonomies\/tags\/terms?fields=id%2Centries_count&sort=id&limit=25&page=1" \
		"$E\/taxonomies\/tags\/terms?fields=id%2Centries_count&sort=id&limit=25&page=1" "$E\/taxonomies\/tags\/terms")}"
request GET /api/globals/settings
case "$BODY" in
'{"data":{"site_name":"Crumb & Co.","social":['*'"tagline":"Slow bread, early mornings","handle":"settings","api_url":'*) pass ;;
*) fail "example: global set" "$STATUS $BODY" ;;
esac
request GET /api/forms/contact
case "$BODY" in
'{"data":{"handle":"contact","title":"Contact Us","fields":{"name":{"type":"text","display":"Name","validate":["required"],"handle":"name","width":100},'*) pass ;;
*) fail "example: form" "$STATUS $BODY" ;;
esac
expect "example: a user" GET '/api/users/6c1d2a9e-5b8f-4f0e-9a3d-2f7b8c1e4d10' 200 \
	"{\"data\":{\"id\":\"6c1d2a9e-5b8f-4f0e-9a3d-2f7b8c1e4d10\",\"email\":\"mia@example.com\",\"name\":\"Mia Baker\",\"is_super\":true,\"api_url\":\"$E\/users\/6c1d2a9e-5b8f-4f0e-9a3d-2f7b8c1e4d10\"}}"
expect "example: an asset container" GET /api/asset-containers/assets 200 \
	"{\"data\":{\"handle\":\"assets\",\"title\":\"Assets\",\"api_url\":\"$E\/asset-containers\/assets\"}}"
expect "example: the loaf's presets" GET '/api/assets/assets/loaf.jpg?fields=alt,presets' 200 \
	"{\"data\":{\"alt\":\"Our country loaf, fresh from the oven\",\"presets\":{\"thumb\":\"$E\/img\/assets\/loaf.jpg?p=thumb\",\"hero\":\"$E\/img\/assets\/loaf.jpg?p=hero\"}}}"
request GET '/api/img/assets/loaf.jpg?p=hero'
[ "$STATUS $(/usr/bin/python3 "$HERE/mkpng.py" --size "$T/body")" = "200 webp 1200x600" ] && pass ||
	fail "example: the loaf as a hero" "$STATUS $(/usr/bin/python3 "$HERE/mkpng.py" --size "$T/body")"
expect_header "example: the hero's type" "Content-Type: image/webp"
expect "example: an asset" GET '/api/assets/assets/logo.svg?fields=id,url,api_url,alt,width,height,mime_type' 200 \
	"{\"data\":{\"id\":\"assets::logo.svg\",\"url\":\"\/assets\/logo.svg\",\"api_url\":\"$E\/assets\/assets\/logo.svg\",\"alt\":\"A round loaf with three scores\",\"width\":64,\"height\":64,\"mime_type\":\"image\/svg+xml\"}}"
# What the example shows beyond Statamic's API (its cms-api.ini's last
# sections): a shape, an OR group, a filter through a relation, an
# include, a scope (with a filter of the request's own), a search, a
# tree filter.
BLOG=/api/collections/blog/entries
expect_data "example: the recipes' shape" '/api/collections/recipes/entries?sort=title&limit=1' \
	'[{"id":"686eac1f-fb77-465b-b671-658737df5c3b","title":"Cinnamon Buns","difficulty":"easy","minutes":30,"yield":"12 buns"}]'
expect_data "example: an OR group" "$BLOG?fields=title&sort=title&filter[or][0][title:contains]=rye&filter[or][1][title:contains]=winter" \
	'[{"title":"Rye Week"},{"title":"Three Loaves for Winter"}]'
expect_data "example: a filter through a relation" "$BLOG?fields=title&sort=title&filter[tags.title]=Basics" \
	'[{"title":"Keeping a Starter Alive"},{"title":"Laminating Croissant Dough"}]'
expect_data "example: an include" "$BLOG/655a6977-12a3-4162-9aa4-78f3fa44e040?fields=title,tags.title,tags.description&include=tags" \
	'{"title":"Rye Week","tags":[{"title":"Sourdough","description":"Naturally leavened bread and the starter behind it."},{"title":"Seasonal","description":"What is on the counter this time of year."}]}'
expect_data "example: a scope" "$BLOG?fields=title&query_scope=seasonal" \
	'[{"title":"The Spring Menu"},{"title":"Rye Week"},{"title":"Three Loaves for Winter"}]'
expect_data "example: a scope and a filter" "$BLOG?fields=title&query_scope=seasonal&filter[author]=Tom%20Lindqvist" \
	'[{"title":"The Spring Menu"},{"title":"Three Loaves for Winter"}]'
expect_data "example: a search" "$BLOG?fields=title&q=rye%20bread" '[{"title":"Rye Week"}]'
expect_data "example: a search and a filter" "$BLOG?fields=title&q=baking&filter[author]=Tom%20Lindqvist" \
	'[{"title":"Three Loaves for Winter"}]'
expect_data "example: a tree filter" '/api/collections/pages/tree?fields=title&filter[title:contains]=team&keep=ancestors' \
	'[{"page":{"title":"About Us"},"depth":1,"children":[{"page":{"title":"Our Team"},"depth":2,"children":[]}]}]'
# The filters the example allows (scripts/serve and README show one), and
# one it does not.
for q in 'recipes/entries?filter[difficulty]=easy&fields=title => Cinnamon Buns|Rye Crackers' \
	'recipes/entries?filter[prep_minutes:lt]=40&fields=title => Cinnamon Buns|Rye Crackers' \
	'blog/entries?filter[author]=Mira%20Okafor&fields=title => Keeping a Starter Alive|Rye Week' \
	'blog/entries?filter[title:contains]=Rye&fields=title => Rye Week'; do
	request GET "/api/collections/${q%% => *}"
	titles=$(printf '%s' "$BODY" | grep -o '"title":"[^"]*"' | sed 's/"title":"//; s/"$//' | paste -sd '|')
	[ "$STATUS" = 200 ] && [ "$titles" = "${q#* => }" ] && pass ||
		fail "example: filter ${q%% => *}" "$STATUS $BODY"
done
expect "example: a filter not allowed" GET '/api/collections/recipes/entries?filter[yield]=x' 422 \
	'{"message":"Forbidden filter: yield"}'
stop_server
run_workers_as_tester
# The workers wrote their log and their cache where the example says.
if [ -f "$EXAMPLE/var/cms-api.log" ] && [ "$(stat -c %U "$EXAMPLE/var/cms-api.log")" = "$WORKER_USER_NAME" ]; then
	pass
else
	fail "example: the workers' log is var/cms-api.log" "$(ls -la "$EXAMPLE" "$EXAMPLE/var")"
fi
if ls "$EXAMPLE"/var/cache/index-*.snap >/dev/null 2>&1; then pass; else
	fail "example: the workers' cache is var/cache" "$(ls -laR "$EXAMPLE/var")"; fi
