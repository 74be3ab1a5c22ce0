# FastCGI as cms-api speaks it (src/fcgi.c), through every server: an
# answer of several STDOUT records (a record holds at most 65,535 bytes)
# arrives whole and byte for byte, uncached and cached; HEAD sends none of
# it; a worker answers request after request on the connections the
# server opens or keeps.

FC_SITE="$T/fcgi-site"
rm -rf "$FC_SITE"
sh "$TOP/bench/gen-site" 300 "$FC_SITE" >/dev/null
fc_ini=$(SITE=$FC_SITE CACHE="$T/fcgi-cache" site_ini fcgi <<'INI'
[api]
enabled = true
max_limit = 1000
[resources]
collections = true
INI
)
fc_path='/api/collections/articles/entries?limit=300&sort=title'
# What the worker renders, from the command line (Host: localhost there).
fc_want=$("$CMS_API_BIN" -c "$fc_ini" get "$fc_path" | tail -n 1)
fc_len=${#fc_want}
if [ "$fc_len" -gt 140000 ]; then pass; else
	fail "fcgi: the page spans three records or more" "$fc_len bytes"; fi
start_server "$fc_ini" /api
for fc_round in uncached cached; do
	request GET "$fc_path" -H 'Host: localhost'
	if [ "$STATUS" = 200 ] && [ "$BODY" = "$fc_want" ]; then pass; else
		fail "fcgi: a $fc_len-byte answer, $fc_round, byte for byte" "$STATUS ${#BODY} bytes"; fi
	expect_header "fcgi: its Content-Length ($fc_round)" "Content-Length: $fc_len"
done
request HEAD "$fc_path" -H 'Host: localhost'
if [ "$STATUS" = 200 ] && tr -d '\r' <"$T/headers" | grep -Fxq "Content-Length: $fc_len"; then
	pass
else
	fail "fcgi: HEAD of the large page" "$STATUS $(cat "$T/headers")"
fi
fc_raw=$(raw_request "HEAD $fc_path HTTP/1.0\r\nHost: localhost\r\n\r\n" | tr -d '\r' |
	sed -n '/^$/,$p' | wc -c)
[ "$fc_raw" -le 1 ] && pass || fail "fcgi: HEAD sends no body" "$fc_raw bytes after the headers"

# Many requests in a row, small and large, over whatever connections the
# server keeps: every answer whole.
fc_bad=0
for i in $(seq 1 30); do
	if [ $((i % 3)) = 0 ]; then
		request GET "$fc_path" -H 'Host: localhost'
		[ "$STATUS" = 200 ] && [ "$BODY" = "$fc_want" ] || fc_bad=$((fc_bad + 1))
	else
		request GET /api/ping
		[ "$STATUS" = 200 ] && [ "$BODY" = '{"ping":"pong"}' ] || fc_bad=$((fc_bad + 1))
	fi
done
[ "$fc_bad" = 0 ] && pass || fail "fcgi: 30 requests in a row, every answer whole" "$fc_bad bad"
stop_server
rm -rf "$FC_SITE" "$T/fcgi-cache"
