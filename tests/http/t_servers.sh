# What only one web server has: Apache's shared-hosting recipe
# (etc/htaccess-cms-api and etc/cms-api.fcgi, in a user directory served
# by mod_userdir), and nginx's keep-alive pool (etc/nginx-cms-api.conf)
# with more clients than workers. Every other test runs through every
# server.

SITE="$FIXTURES/site"
SV_SITE=$SITE
SV_PONG='{"ping":"pong"}'
SV_UNAUTH='{"message":"Unauthenticated."}'
SV_NOT_FOUND='{"message":"Not found."}'

# --- Apache: the shared-hosting recipe, in ~bob --------------------------------
# Laid out as the recipe says, in a home directory of its own ($T/home/bob,
# the tester's, as a host's suEXEC runs a customer's programs as that
# customer). Apache is given only what a host gives: mod_userdir and
# "AllowOverride FileInfo AuthConfig Options=ExecCGI" for the user's
# public_html. The .htaccess and the script are the shipped files.
if only_under apache; then
	SV_HOME="$T/home/bob"
	mkdir -p "$SV_HOME/public_html" "$SV_HOME/cms-api"
	cp -r "$SV_SITE" "$SV_HOME/site"
	cp "$TOP/etc/htaccess-cms-api" "$SV_HOME/public_html/.htaccess"
	cp "$TOP/etc/cms-api.fcgi" "$SV_HOME/public_html/cms-api.fcgi"
	chmod 0755 "$SV_HOME/public_html/cms-api.fcgi"
	cp "$CMS_API_BIN" "$SV_HOME/cms-api/cms-api"
	cat >"$SV_HOME/cms-api/cms-api.ini" <<'INI'
[api]
enabled = true
auth_token = bob-s3cret
[content]
root = ../site
[cache]
dir = cache
[log]
target = cms-api.log
level = info
[rate_limit]
per_minute = 0
[resources]
collections = true
INI
	APACHE_EXTRA_CONF="LoadModule userdir_module /usr/lib/apache2/modules/mod_userdir.so
UserDir $T/home/*/public_html
<Directory $T/home/*/public_html>
	AllowOverride FileInfo AuthConfig Options=ExecCGI
	Require all granted
</Directory>"
	sv_ini=$(site_ini servers <<'INI'
[api]
enabled = true
INI
)
	start_server "$sv_ini" /api
	APACHE_EXTRA_CONF=
	SV_BOB=(-H 'Authorization: Bearer bob-s3cret')
	U="http:\/\/127.0.0.1:$PORT\/~bob\/api"
	expect "shared hosting: no token" GET /~bob/api/ping 401 "$SV_UNAUTH"
	expect_header "shared hosting: no token" "WWW-Authenticate: Bearer"
	# CGIPassAuth in the .htaccess hands the header over.
	expect "shared hosting: the right token" GET /~bob/api/ping 200 "$SV_PONG" "${SV_BOB[@]}"
	expect "shared hosting: a wrong token" GET /~bob/api/ping 401 "$SV_UNAUTH" \
		-H 'Authorization: Bearer nope'
	# The route follows the script: /~bob/api, and the URLs keep it.
	expect "shared hosting: a collection, its api_url under ~bob" GET /~bob/api/collections/blog 200 \
		"{\"data\":{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,\"mount\":null,\"api_url\":\"$U\/collections\/blog\"}}" \
		"${SV_BOB[@]}"
	request GET '/~bob/api/collections/blog/entries?limit=1&fields=title' "${SV_BOB[@]}"
	case "$BODY" in
	'{"data":[{"title":"Hello World"}],"links":{"first":"'"$U"'\/collections\/blog\/entries?limit=1&fields=title&page=1",'*) pass ;;
	*) fail "shared hosting: pagination links under ~bob, the query kept" "$STATUS $BODY" ;;
	esac
	expect "shared hosting: an unknown path" GET /~bob/api/nope 404 "$SV_NOT_FOUND" "${SV_BOB[@]}"
	expect "shared hosting: the script itself is not the API" GET /~bob/cms-api.fcgi 404 \
		"$SV_NOT_FOUND" "${SV_BOB[@]}"
	# The server-level snippet goes on answering beside it, with its own
	# configuration.
	expect "shared hosting: /api of the server beside it" GET /api/ping 200 "$SV_PONG"
	# The workers' log and cache are where the INI says, in the home.
	if [ -f "$SV_HOME/cms-api/cms-api.log" ]; then pass; else
		fail "shared hosting: the log is ~/cms-api/cms-api.log" "$(ls -la "$SV_HOME/cms-api")"; fi
	if ls "$SV_HOME"/cms-api/cache/index-*.snap >/dev/null 2>&1; then pass; else
		fail "shared hosting: the cache is ~/cms-api/cache" "$(ls -la "$SV_HOME/cms-api")"; fi
	stop_server
	# mod_fcgid ends the user's workers with Apache.
	for _ in $(seq 1 30); do
		pgrep -f "^$SV_HOME/public_html/../cms-api/cms-api " >/dev/null || break
		sleep 0.1
	done
	if pgrep -f "^$SV_HOME/public_html/../cms-api/cms-api " >/dev/null; then
		fail "shared hosting: workers still run after Apache stopped" \
			"$(pgrep -af "^$SV_HOME/public_html/../cms-api/cms-api ")"
	else
		pass
	fi
fi

# --- nginx: keep-alive with more clients than workers, and than kept connections ---
# Each kept connection holds a single-threaded worker. With the snippet's
# pool (keepalive 1 per nginx worker process) and two nginx workers, as
# Debian's "worker_processes auto" makes on two CPUs, three cms-api
# workers (more than keepalive x worker_processes) answer eight clients at
# once without a request waiting for a kept connection to go. (--max-time
# only bounds a stall: such a request would wait 60 s for nginx's timeout.)
if only_under nginx; then
	sv_ini=$(site_ini keepalive <<'INI'
[api]
enabled = true
[resources]
collections = true
INI
)
	WORKER_PROCS=3 NGINX_WORKER_PROCESSES=2
	start_server "$sv_ini" /api
	WORKER_PROCS= NGINX_WORKER_PROCESSES=
	sv_pids=
	for sv_client in 1 2 3 4 5 6 7 8; do
		(for i in $(seq 1 25); do
			if [ $((i % 2)) = 0 ]; then p=/api/ping; else p="/api/collections/blog/entries?limit=$i"; fi
			curl -s -o /dev/null --max-time 5 -w '%{http_code}\n' "http://127.0.0.1:$PORT$p"
		done >"$T/keepalive-$sv_client") &
		sv_pids="$sv_pids $!"
	done
	# shellcheck disable=SC2086
	wait $sv_pids
	sv_codes=$(cat "$T"/keepalive-* | sort | uniq -c | tr -s ' ')
	[ "$sv_codes" = " 200 200" ] && pass ||
		fail "keep-alive: 8 clients, 3 workers, 2 nginx workers: 200 answers, none held" "$sv_codes"
	stop_server

	# Fewer workers than kept connections: one worker, two nginx workers
	# keeping one connection each. A worker idle on a kept connection gives
	# it up as soon as another connection waits (src/fcgi.h), so no request
	# waits for nginx to let a kept connection go.
	WORKER_PROCS=1 NGINX_WORKER_PROCESSES=2
	start_server "$sv_ini" /api
	WORKER_PROCS= NGINX_WORKER_PROCESSES=
	sv_pids=
	for sv_client in 1 2 3 4 5 6 7 8; do
		(for i in $(seq 1 25); do
			curl -s -o /dev/null --max-time 5 -w '%{http_code}\n' "http://127.0.0.1:$PORT/api/ping"
		done >"$T/keepalive1-$sv_client") &
		sv_pids="$sv_pids $!"
	done
	# shellcheck disable=SC2086
	wait $sv_pids
	sv_codes=$(cat "$T"/keepalive1-* | sort | uniq -c | tr -s ' ')
	[ "$sv_codes" = " 200 200" ] && pass ||
		fail "keep-alive: 8 clients, 1 worker, 2 nginx workers: 200 answers, none held" "$sv_codes"
	# SIGTERM while its kept connection is idle: the worker stops at once.
	sv_worker=$(spawned_workers "$SERVER_WORKERS")
	kill -TERM $sv_worker
	sv_gone=no
	for _ in $(seq 1 20); do
		[ -z "$(spawned_workers "$SERVER_WORKERS")" ] && { sv_gone=yes; break; }
		sleep 0.1
	done
	[ "$sv_gone" = yes ] && pass ||
		fail "keep-alive: SIGTERM ends a worker idle on a kept connection within 2 s"
	stop_server
fi
