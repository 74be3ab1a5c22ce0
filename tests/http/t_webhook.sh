# Webhooks ([webhook.<name>]) through a running pool and its watcher,
# against local receivers (small Python HTTP servers): the body names the
# events and items, signed with HMAC-SHA256 of the secret; a webhook is
# sent only for the events it lists; a slow receiver never holds the
# watcher (an edit made meanwhile shows within a second); a receiver that
# is down gets every delivery once it is back, even after the watcher
# ended meanwhile (the spool), and each failure is logged. Once, whatever
# the server: the watcher sends them.

wh_skip=
once_for_all_servers || wh_skip=yes
if [ -z "$wh_skip" ] && ! needs_commands t_webhook "scripts/install-deps installs it" python3; then
	wh_skip=yes
fi

if [ -z "$wh_skip" ]; then
WH="$T/webhook"
mkdir -p "$WH/a" "$WH/b"
cp -r "$FIXTURES/site" "$WH/site"
cat >"$WH/receiver.py" <<'PY'
# receiver.py PORT DIR: keeps each POST (headers, body) as a file
# DIR/TIME-THREAD.json; answers after 3 s while DIR/slow exists, 500
# while DIR/fail exists.
import http.server, json, os, sys, threading, time
port, out = int(sys.argv[1]), sys.argv[2]
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if os.path.exists(os.path.join(out, "slow")):
            time.sleep(3)
        if os.path.exists(os.path.join(out, "fail")):
            self.send_response(500)
            self.end_headers()
            return
        name = "%d-%d" % (time.time_ns(), threading.get_ident())
        with open(os.path.join(out, name + ".tmp"), "w") as f:
            json.dump({"headers": dict(self.headers), "body": body.decode()}, f)
        os.rename(os.path.join(out, name + ".tmp"), os.path.join(out, name + ".json"))
        self.send_response(200)
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", port), Hook).serve_forever()
PY
WH_PA=$(free_port)
WH_PB=$(free_port)
python3 "$WH/receiver.py" "$WH_PA" "$WH/a" &
WH_A_PID=$!
WH_B_PID=

SITE="$WH/site" CACHE="$WH/cache" WORKER_LOG="$WH/worker.log" site_ini webhook >/dev/null <<INI
[api]
enabled = true
[resources]
collections = true
globals = true
[webhook.build]
url = http://127.0.0.1:$WH_PA/hook
events = EntrySaved, EntryDeleted
secret = s3cret
[webhook.later]
url = http://127.0.0.1:$WH_PB/hook
secret = other
INI
start_server "$T/webhook.ini"
request GET /api/ping

# wh_count DIR: deliveries a receiver kept; wh_first DIR: the first.
wh_count() { find "$1" -name '*.json' | wc -l; }
wh_first() { find "$1" -name '*.json' | sort | head -n 1; }
# wh_until DIR N [SECONDS]: up to SECONDS (default 5) for N deliveries.
wh_until() {
	for _ in $(seq 1 $((${3:-5} * 10))); do
		[ "$(wh_count "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# wh_check FILE SECRET EXPR: EXPR (python, over the body as b and the
# headers as h) holds, and the signature is the body's HMAC under SECRET.
wh_check() {
	python3 - "$1" "$2" "$3" <<'PY'
import hashlib, hmac, json, sys
r = json.load(open(sys.argv[1]))
h, raw = r["headers"], r["body"]
b = json.loads(raw)
want = "sha256=" + hmac.new(sys.argv[2].encode(), raw.encode(), hashlib.sha256).hexdigest()
ok = h.get("X-Cms-Api-Signature") == want and h.get("Content-Type") == "application/json"
sys.exit(0 if ok and eval(sys.argv[3]) else 1)
PY
}
blog="$WH/site/content/collections/blog/en"

# An entry saved: "build" gets it, signed; "later" is down.
sed -i "s/title: 'Hello World'/title: 'Hello Hook'/" "$blog/2024-01-10.hello-world.md"
wh_until "$WH/a" 1 && pass || fail "t_webhook: a delivery" "$(cat "$WH/worker.log")"
if wh_check "$(wh_first "$WH/a")" s3cret "(b['webhook'] == 'build' and b['events'] == ['EntrySaved']
and len(b['generation']) == 16 and h['X-Cms-Api-Delivery'] == b['generation'] + '-build'
and b['items'] == [{'event': 'EntrySaved', 'type': 'entry', 'handle': 'blog',
     'id': '1f2e3d4c-0000-4000-8000-000000000001',
     'path': 'content/collections/blog/en/2024-01-10.hello-world.md'}])"; then
	pass
else
	fail "t_webhook: the body names the event and the entry, signed" "$(cat "$(wh_first "$WH/a")")"
fi
# A global saved: not an event "build" is sent for.
sed -i 's/^site_name: Example$/site_name: Hooked/' "$WH/site/content/globals/en/settings.yaml"
sleep 1.5
[ "$(wh_count "$WH/a")" = 1 ] && pass || fail "t_webhook: only the events listed" "$(ls "$WH/a")"
for _ in $(seq 1 50); do grep -q 'webhook later to .* failed' "$WH/worker.log" && break; sleep 0.1; done
grep -q "webhook later to http://127.0.0.1:$WH_PB/hook failed (try 1" "$WH/worker.log" && pass ||
	fail "t_webhook: a failed delivery is logged" "$(cat "$WH/worker.log")"

# A slow receiver: an edit made while it takes its time shows at once.
touch "$WH/a/slow"
sed -i "s/^title: Undated$/title: Slowly/" "$blog/undated.md"
sleep 0.5
sed -i "s/^title: Introduction$/title: Quickly/" "$WH/site/content/collections/docs/en/intro.md"
until_answer "t_webhook: a slow receiver never holds the watcher" \
	/api/collections/docs/entries/docs-intro '*"title":"Quickly"*' 1
rm "$WH/a/slow"
wh_until "$WH/a" 2 8 && pass || fail "t_webhook: the slow receiver's delivery" "$(ls "$WH/a")"

# The watcher ends with "later"'s deliveries undelivered: they wait in
# the spool, and the next watcher sends them once the receiver is back.
stop_server
wait_workers_gone
wh_spooled=$(cat "$WH"/cache/outbox-*/*.req 2>/dev/null | grep -c '^webhook later$')
[ "$wh_spooled" -ge 3 ] && pass || fail "t_webhook: undelivered webhooks are spooled" "$wh_spooled"
python3 "$WH/receiver.py" "$WH_PB" "$WH/b" &
WH_B_PID=$!
start_server "$T/webhook.ini"
request GET /api/ping
wh_until "$WH/b" "$wh_spooled" 15 && pass ||
	fail "t_webhook: a receiver back gets every delivery" "spooled: $wh_spooled" "$(ls "$WH/b")" \
		"$(grep -h '^[a-z]' "$WH"/cache/outbox-*/*.req 2>/dev/null)" "$(tail -5 "$WH/worker.log")"
if wh_check "$(wh_first "$WH/b")" other "b['webhook'] == 'later'"; then pass; else
	fail "t_webhook: signed with the webhook's own secret" "$(cat "$(wh_first "$WH/b")")"
fi
for _ in $(seq 1 30); do
	[ "$(find "$WH/cache" -path '*outbox-*' -name '*.req' | wc -l)" = 0 ] && break
	sleep 0.1
done
[ "$(find "$WH/cache" -path '*outbox-*' -name '*.req' | wc -l)" = 0 ] && pass ||
	fail "t_webhook: the spool is empty once delivered" "$(find "$WH/cache" -name '*.req')"
grep -q 'left undelivered by the last watcher, sent again' "$WH/worker.log" && pass ||
	fail "t_webhook: the new watcher says it sends the old deliveries"
stop_server
kill "$WH_A_PID" "$WH_B_PID" 2>/dev/null
wait "$WH_A_PID" "$WH_B_PID" 2>/dev/null
fi
