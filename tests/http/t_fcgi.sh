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

# --- slow peers against a real pool --------------------------------------------
# A request must arrive whole within a few seconds (src/server/fcgi.h), a
# bound on the whole request: a peer that sends one a byte at a time is
# cut off, and a few such peers cannot starve the pool. cms-api -n 2 on
# TCP, its bound made 300 ms by a test hook (CMS_API_TEST_REQUEST_MS);
# four peers, twice the workers, each send a request a byte every 0.2 s
# (it would take them 40 s) and connect again when cut off, three times.
# Meanwhile ten requests straight to the pool are all answered (a 15 s
# bound on each only bounds a stall: with the 30 s a request had before,
# they waited behind the peers), and every peer's connection is closed
# before it could finish. The peers need no web server: once.
if once_for_all_servers && needs_test_hooks "fcgi: slow peers"; then
	FC_PORT=$(free_port)
	FC_LOG="$T/fcgi-slow.log"
	fc_slow_ini=$(SITE="$FIXTURES/site" WORKER_LOG="$FC_LOG" CACHE="$T/fcgi-slow-cache" \
		site_ini fcgi-slow <<'INI'
[api]
enabled = true
INI
)
	CMS_API_TEST_REQUEST_MS=300 "$CMS_API_BIN" -c "$fc_slow_ini" -n 2 --listen ":$FC_PORT" \
		>"$T/fcgi-slow.out" 2>&1 &
	fc_pool=$!
	# fc_ask: one request straight to the pool; its status line and body.
	fc_ask() {
		env -i REQUEST_METHOD=GET REQUEST_URI=/api/ping HTTP_HOST=pool.example \
			timeout 15 cgi-fcgi -bind -connect "127.0.0.1:$FC_PORT" </dev/null 2>/dev/null |
			tr -d '\r' | sed -n '1p;$p' | tr '\n' ' ' | sed 's/ *$//'
	}
	FC_PONG='Status: 200 OK {"ping":"pong"}'
	for _ in $(seq 1 50); do
		[ "$(fc_ask)" = "$FC_PONG" ] && break
		sleep 0.1
	done
	# The request a peer sends: BEGIN_REQUEST, then PARAMS with a value of
	# 200 bytes, as \xHH escapes for printf, a byte each.
	fc_value=$(head -c 200 /dev/zero | tr '\0' v)
	printf '\x01\x01\x00\x01\x00\x08\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00' >"$T/fcgi-slow.req"
	printf '\x01\x04\x00\x01\x00\xd0\x00\x00\x04\x80\x00\x00\xc8HOST%s' "$fc_value" \
		>>"$T/fcgi-slow.req"
	mapfile -t FC_BYTES < <(od -An -v -tx1 "$T/fcgi-slow.req" | tr -s ' ' '\n' | grep . | sed 's/^/\\x/')
	# fc_slow_peer ROUNDS OUT: a peer; the bytes it got to send in each
	# round, a line each, in OUT.
	fc_slow_peer() {
		local round sent byte rc
		trap '' PIPE
		for round in $(seq 1 "$1"); do
			exec 3<>"/dev/tcp/127.0.0.1/$FC_PORT" || { echo "no connection" >>"$2"; continue; }
			sent=0
			for byte in "${FC_BYTES[@]}"; do
				# shellcheck disable=SC2059
				printf "$byte" >&3 2>/dev/null || break
				sent=$((sent + 1))
				# The pause: a read that ends before it is the close.
				read -r -t 0.2 -u 3 _ && break
				rc=$?
				[ "$rc" -gt 128 ] || break
			done
			exec 3>&-
			echo "$sent" >>"$2"
		done
	}
	fc_peers=
	for fc_peer in 1 2 3 4; do
		: >"$T/fcgi-peer-$fc_peer"
		fc_slow_peer 3 "$T/fcgi-peer-$fc_peer" &
		fc_peers="$fc_peers $!"
	done
	sleep 0.2
	fc_answered=0
	for _ in $(seq 1 10); do
		[ "$(fc_ask)" = "$FC_PONG" ] && fc_answered=$((fc_answered + 1))
	done
	[ "$fc_answered" = 10 ] && pass ||
		fail "fcgi: 10 requests answered while 4 slow peers hold 2 workers" "$fc_answered answered"
	# shellcheck disable=SC2086
	wait $fc_peers
	fc_rounds=$(cat "$T"/fcgi-peer-* | grep -c '^[0-9]')
	fc_whole=$(cat "$T"/fcgi-peer-* | awk -v n="${#FC_BYTES[@]}" '$1 >= n' | wc -l)
	[ "$fc_rounds" = 12 ] && [ "$fc_whole" = 0 ] && pass ||
		fail "fcgi: every slow peer cut off before its request was whole" \
			"$fc_rounds rounds, $fc_whole whole: $(cat "$T"/fcgi-peer-* | tr '\n' ' ')"
	fc_cut=$(grep -c 'FastCGI: no whole request within 300 ms: connection closed' "$FC_LOG")
	[ "$fc_cut" = 12 ] && pass || fail "fcgi: each cut logged" "$fc_cut lines" "$(tail -n 5 "$FC_LOG")"
	kill -TERM "$fc_pool"
	wait "$fc_pool"
	fc_rc=$?
	[ "$fc_rc" = 0 ] && pass || fail "fcgi: the pool stops cleanly" "$fc_rc $(cat "$T/fcgi-slow.out")"
fi
