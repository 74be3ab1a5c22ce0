# Answers at the edge: a real varnishd with varnish-modules' xkey (the VCL
# of etc/cms-api.vcl, its backend the two pools below) in front of two
# cms-api pools (two servers, each with its own cache directory and
# watcher) sharing one Redis. An edit purges exactly the answers that
# showed what changed: the rest stay cached at Varnish (its hit and miss
# counters, varnishstat), and the edited answer is fresh through Varnish
# within a second. Once, whatever the server: Varnish sits in front of it.

ed_skip=
once_for_all_servers || ed_skip=yes
if [ -z "$ed_skip" ] && ! needs_commands t_edge \
	"scripts/install-deps installs varnish, varnish-modules and redis-server" \
	varnishd varnishstat redis-server redis-cli; then
	ed_skip=yes
fi

if [ -z "$ed_skip" ]; then
ED="$T/edge"
mkdir -p "$ED/redis" "$ED/a" "$ED/b" "$ED/varnish"
cp -r "$FIXTURES/site" "$ED/site"
ED_REDIS=$(free_port)
ED_VARNISH=$(free_port)
redis-server --port "$ED_REDIS" --bind 127.0.0.1 --save '' --appendonly no \
	--dir "$ED/redis" --logfile "$ED/redis/log" >/dev/null 2>&1 &
ED_REDIS_PID=$!
for _ in $(seq 1 100); do
	[ "$(redis-cli -p "$ED_REDIS" ping 2>/dev/null)" = PONG ] && break
	sleep 0.05
done

for ed_pool in a b; do
	cat >"$ED/$ed_pool/cms-api.ini" <<INI
[api]
enabled = true
base_url = http://cms.example
[content]
root = $ED/site
[log]
target = $ED/$ed_pool/worker.log
level = debug
access = $ED/$ed_pool/access.log
[cache]
dir = $ED/$ed_pool/cache
driver = redis
port = $ED_REDIS
prefix = edge:
[rate_limit]
per_minute = 0
[resources]
collections = true
globals = true
taxonomies = true
[edge]
tags_header = xkey
varnish = http://127.0.0.1:$ED_VARNISH
INI
done
run_workers_unprivileged "$ED"
chmod -R a+rX "$ED/site"
start_server "$ED/a/cms-api.ini"
ED_A=$PORT
detach_server ED_SERVER_A
LRUN=$ED/b/run
mkdir -p "$LRUN"
worker_owns "$LRUN"
start_server "$ED/b/cms-api.ini"
ED_B=$PORT
detach_server ED_SERVER_B
run_workers_as_tester

# The shipped VCL as it is, its backend the first pool, plus the second
# pool and a round-robin director over both.
sed "s/\\.port = \"8080\";/.port = \"$ED_A\";/" "$TOP/etc/cms-api.vcl" >"$ED/cms-api.vcl"
cat >>"$ED/cms-api.vcl" <<VCL
import directors;
backend b {
	.host = "127.0.0.1";
	.port = "$ED_B";
}
sub vcl_init {
	new pools = directors.round_robin();
	pools.add_backend(default);
	pools.add_backend(b);
}
sub vcl_recv {
	set req.backend_hint = pools.backend();
}
VCL
varnishd -F -j none -n "$ED/varnish" -a "127.0.0.1:$ED_VARNISH" -f "$ED/cms-api.vcl" \
	-s malloc,32m -p vsl_space=1m >"$ED/varnishd.out" 2>&1 &
ED_VARNISH_PID=$!
ed_started=
for _ in $(seq 1 100); do
	curl -s -o /dev/null "http://127.0.0.1:$ED_VARNISH/api/ping" && { ed_started=yes; break; }
	kill -0 "$ED_VARNISH_PID" 2>/dev/null || break
	sleep 0.1
done
[ -n "$ed_started" ] && pass || fail "varnishd did not start" "$(cat "$ED/varnishd.out")"

# ed_get PATH: GET PATH through Varnish; STATUS, BODY, headers as request's.
ed_get() { PORT=$ED_VARNISH request GET "$1"; }
ed_stat() { varnishstat -n "$ED/varnish" -1 -f "MAIN.$1" 2>/dev/null | awk '{print $2}'; }
# ed_hits_misses: "HITS MISSES" of Varnish so far.
ed_hits_misses() { echo "$(ed_stat cache_hit) $(ed_stat cache_miss)"; }
# ed_count PATTERN: how many lines of both pools' logs hold PATTERN.
ed_count() { cat "$ED/a/worker.log" "$ED/b/worker.log" | grep -c -- "$1"; }
# ed_purges: what the logs say of purges, for a failure's message.
ed_purges() { grep -h purg "$ED/a/worker.log" "$ED/b/worker.log"; }
# ed_purged PATTERN N: waits (5 s at most) for N purges logged with
# PATTERN, and Varnish to have taken every purge queued (the log says so
# at level debug: one PURGE a purge, the tags being few).
ed_purged() {
	for _ in $(seq 1 100); do
		[ "$(ed_count "$1")" -ge "$2" ] &&
			[ "$(ed_count "purge to http://127.0.0.1:$ED_VARNISH/: 200")" -ge "$(ed_count 'purging ')" ] &&
			return 0
		sleep 0.05
	done
	return 1
}

ed_edited=/api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000001
ed_related=/api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000003
ed_list=/api/collections/blog/entries
ed_kept=(/api/collections/pages/entries /api/collections/pages/entries/about /api/globals
	/api/taxonomies/tags/terms /api/collections/docs/entries)
ed_all=("$ed_edited" "$ed_related" "$ed_list" "${ed_kept[@]}")

# ed_all_hits NAME PATH...: each PATH through Varnish is a hit, none a miss.
ed_all_hits() {
	local name=$1 before after p
	shift
	before=$(ed_hits_misses)
	for p in "$@"; do ed_get "$p"; done
	after=$(ed_hits_misses)
	if [ "${after% *}" = "$((${before% *} + $#))" ] && [ "${after#* }" = "${before#* }" ]; then
		pass
	else
		fail "t_edge: $name" "hits misses before: $before, after: $after" \
			"$(ed_purges)"
	fi
}

# A new cache directory's first generation purges nothing: every
# machine that starts would empty the edge.
[ "$(ed_count 'purging ')" = 0 ] && pass ||
	fail "t_edge: a first generation purges nothing" "$(ed_purges)"
# Every answer once (a miss), then again: a hit at Varnish, not fetched.
for p in "${ed_all[@]}"; do ed_get "$p"; done
ed_all_hits "a repeat is a hit at Varnish" "${ed_all[@]}"
# The client never sees the tags.
ed_get "$ed_edited"
expect_no_header "t_edge: the tags stay at Varnish" xkey

# The edit: within a second the answer through Varnish is the new one.
ed_file="$ED/site/content/collections/blog/en/2024-01-10.hello-world.md"
before=$(ed_hits_misses)
ed_start=$(date +%s%N)
sed -i "s/title: 'Hello World'/title: 'Hello Edge'/" "$ed_file"
ed_fresh=
for _ in $(seq 1 100); do
	ed_get "$ed_edited"
	case "$BODY" in *'"title":"Hello Edge"'*) ed_fresh=yes; break ;; esac
	sleep 0.02
done
ed_ms=$((($(date +%s%N) - ed_start) / 1000000))
echo "note: t_edge: the edit was fresh through Varnish after $ed_ms ms"
if [ -n "$ed_fresh" ] && [ "$ed_ms" -lt 1000 ]; then pass; else
	fail "t_edge: the edited answer fresh through Varnish within 1 s" \
		"fresh: ${ed_fresh:-no} after $ed_ms ms; last: $STATUS ${BODY:0:200}"
fi
# The watchers' purges arrived (each pool's watcher purges; the second
# finds nothing more to remove).
ed_purged 'purging ' 2 && pass ||
	fail "t_edge: the edit's purges reach Varnish" "$(ed_purges)"
# What showed the entry is purged: fresh (a miss) and new.
before=$(ed_hits_misses)
ed_get "$ed_related"
case "$BODY" in *'"title":"Hello Edge"'*) pass ;; *) fail "t_edge: an entry relating to the edited one is purged" "${BODY:0:300}" ;; esac
ed_get "$ed_list"
case "$BODY" in *'"title":"Hello Edge"'*) pass ;; *) fail "t_edge: the edited entry's list is purged" "${BODY:0:300}" ;; esac
after=$(ed_hits_misses)
[ "${after#* }" = "$((${before#* }+ 2))" ] && pass ||
	fail "t_edge: the purged answers were misses" "hits misses before: $before, after: $after"
# The rest stayed cached at Varnish: hits, every one.
ed_all_hits "answers that did not show the edit stay cached at Varnish" "${ed_kept[@]}"
# A change the watcher cannot place (a blueprint) purges everything.
mkdir -p "$ED/site/resources/blueprints/collections/docs"
printf 'title: Doc\n' >"$ED/site/resources/blueprints/collections/docs/doc.yaml"
ed_purged 'purging 2 tag(s): all any' 2 && pass ||
	fail "t_edge: the purges of all for a blueprint reach Varnish" "$(ed_purges)"
before=$(ed_hits_misses)
ed_get /api/globals
after=$(ed_hits_misses)
[ "${after#* }" = "$((${before#* }+ 1))" ] && pass ||
	fail "t_edge: a blueprint purges every answer" "hits misses before: $before, after: $after" \
		"$(ed_purges)"

kill "$ED_VARNISH_PID" 2>/dev/null
wait "$ED_VARNISH_PID" 2>/dev/null
stop_detached_server "$ED_SERVER_A"
stop_detached_server "$ED_SERVER_B"
kill "$ED_REDIS_PID" 2>/dev/null
wait "$ED_REDIS_PID" 2>/dev/null
wait_workers_gone
fi
