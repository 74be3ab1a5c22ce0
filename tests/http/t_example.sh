# The files we ship: the commented etc/cms-api.ini parses and means what it
# says (API off), and the bundled example site serves through lighttpd.

TOP="$HERE/../.."
shipped="$T/shipped.ini"
sed "s#^root = /srv/www/site#root = $TOP/example/site#" "$TOP/etc/cms-api.ini" >"$shipped"
expect_cmd "shipped cms-api.ini is valid" 0 "$TOP/example/site/content/assets: warning: container assets: disk assets has no [disks.assets] section; it lists no files
ok: $TOP/example/site: 1 site, 3 collections, 13 entries" \
	"$CMS_API_BIN" -c "$shipped" check
NL=$'\n'
expect_cmd "shipped cms-api.ini: API off by default" 1 "Status: 404 Not Found${NL}Content-Type: application/json${NL}Content-Length: 24${NL}${NL}{\"message\":\"Not found.\"}" \
	"$CMS_API_BIN" -c "$shipped" get /api/ping

# The example config logs next to itself; point it elsewhere for the test.
sed "s#^target = cms-api.log#target = $T/example.log#; s#^root = site#root = $TOP/example/site#; s#^dir = cache#dir = $T/example-cache#" \
	"$TOP/example/cms-api.ini" >"$T/example.ini"
start_lighttpd "$T/example.ini" /api
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
stop_lighttpd
