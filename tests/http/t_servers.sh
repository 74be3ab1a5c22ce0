# What only one web server has: Apache's shared-hosting recipe
# (etc/htaccess-cms-api and etc/cms-api.fcgi, in a user directory served
# by mod_userdir) with a token, and with the static fast path
# (etc/htaccess-cms-api-fastpath, etc/htaccess-cms-api-public) for a
# public API, and nginx's keep-alive pool (etc/nginx-cms-api.conf) with
# more clients than workers. Every other test runs through every server.

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

# --- Apache: the shared-hosting recipe with the static fast path, in ~carol ------
# ~carol's API is public (~bob's token cannot go with public_dir): her
# .htaccess is htaccess-cms-api with htaccess-cms-api-fastpath added before
# its RewriteRule, as that file says, and public_html/cms-api-public/ holds
# htaccess-cms-api-public. A second install in public_html/shop/ (its own
# cms-api.ini, cms-api.fcgi pointed at it) is the recipe in a subdirectory.
# The user directories get what Debian's userdir.conf gives them, listing
# on (mod_autoindex) and symbolic links followed only when owners match;
# the AllowOverride of the recipe, nothing more. One worker per script, so
# that each access log is in the order of the requests.
if only_under apache; then
	HF_HOME="$T/home/carol"
	HF_WWW="$HF_HOME/public_html"
	mkdir -p "$HF_HOME"
	cp -r "$SV_SITE" "$HF_HOME/site"
	# hf_install DIR CMS: the recipe in public_html/DIR ("" for
	# public_html itself) with cms-api in ~/CMS.
	hf_install() {
		local www=$HF_WWW${1:+/$1} cms=$HF_HOME/$2
		mkdir -p "$www/cms-api-public" "$cms"
		awk -v lines="$TOP/etc/htaccess-cms-api-fastpath" '
			/^RewriteRule \^api/ { while ((getline l < lines) > 0) print l }
			{ print }' "$TOP/etc/htaccess-cms-api" >"$www/.htaccess"
		cp "$TOP/etc/htaccess-cms-api-public" "$www/cms-api-public/.htaccess"
		sed "s#/\.\./cms-api/#/${1:+../}../$2/#g" "$TOP/etc/cms-api.fcgi" >"$www/cms-api.fcgi"
		chmod 0755 "$www/cms-api.fcgi"
		cp "$CMS_API_BIN" "$cms/cms-api"
		cat >"$cms/cms-api.ini" <<INI
[api]
enabled = true
base_url = http://cms.example
[content]
root = ../site
[cache]
dir = cache
public_dir = ../public_html${1:+/$1}/cms-api-public
[log]
target = cms-api.log
level = info
access = access.log
[rate_limit]
per_minute = 0
[resources]
collections = true
[resources.collections.blog]
allowed_filters = title
INI
	}
	hf_install "" cms-api
	hf_install shop cms-api-shop
	HF_CONF="LoadModule userdir_module $APACHE_MODULES/mod_userdir.so
LoadModule dir_module $APACHE_MODULES/mod_dir.so
LoadModule autoindex_module $APACHE_MODULES/mod_autoindex.so
LoadModule negotiation_module $APACHE_MODULES/mod_negotiation.so
UserDir $T/home/*/public_html
<Directory $T/home/*/public_html>
	AllowOverride FileInfo AuthConfig Options=ExecCGI
	Options MultiViews Indexes SymLinksIfOwnerMatch IncludesNoExec
	Require all granted
</Directory>"
	hf_ini=$(site_ini servers-fastpath <<'INI'
[api]
enabled = true
INI
)
	APACHE_EXTRA_CONF=$HF_CONF WORKER_PROCS=1
	start_server "$hf_ini" /api
	APACHE_EXTRA_CONF= WORKER_PROCS=

	# hf_file WWW URI: the file URI is published as under WWW.
	hf_file() { published_file "$1/cms-api-public" "$2"; }
	# hf_expect_static NAME WWW LOG PREFIX URI: the answer just received
	# for URI is published, byte for byte, under WWW within 5 s, and a
	# repeat gets those bytes from Apache itself, as application/json,
	# without reaching the worker (lib.sh).
	hf_expect_static() {
		expect_published "$1" "$2/cms-api-public" "$5"
		expect_static "$1" "$3" "$4" "$5"
	}
	# hf_expect_dynamic NAME URI STATUS BODY: twice that exact answer,
	# both from cms-api (~carol's log).
	hf_expect_dynamic() {
		local name=$1 uri=$2 before
		before=$(access_seen "$HF_LOG" GET "$uri")
		expect "$name" GET "$uri" "$3" "$4"
		expect "$name, again" GET "$uri" "$3" "$4"
		access_sync "$HF_LOG" /~carol
		[ "$(access_seen "$HF_LOG" GET "$uri")" = "$((before + 2))" ] && pass ||
			fail "$name: both reached the worker" "seen $(access_seen "$HF_LOG" GET "$uri"), $before before"
	}
	HF_LOG="$HF_HOME/cms-api/access.log"
	HF_U='http:\/\/cms.example\/~carol\/api'

	# hf_start WWW PREFIX CMS: the first request starts a worker, whose
	# watcher makes WWW/cms-api-public/current name the cache generation
	# in ~/CMS/cache (up to 5 s; a first worker and its new watcher may
	# both write a first generation, and the watcher follows the last).
	hf_current_ok() {
		local gen
		gen=$(gen_cache_signature "$(ls "$HF_HOME/$2"/cache/generation-* 2>/dev/null | head -1)")
		[ -n "$gen" ] && case $(readlink "$1/cms-api-public/current") in "g$gen-"*) true ;; *) false ;; esac
	}
	hf_start() {
		expect "shared fast path: $2/api/ping" GET "$2/api/ping" 200 "$SV_PONG"
		for _ in $(seq 1 50); do
			hf_current_ok "$1" "$3" && break
			sleep 0.1
		done
		hf_current_ok "$1" "$3" && pass ||
			fail "shared fast path: the watcher made $1/cms-api-public/current" "$(ls -la "$1/cms-api-public")"
	}
	hf_start "$HF_WWW" /~carol cms-api
	# Answered again (a hit) now that the link is there: published.
	expect "shared fast path: ping" GET /~carol/api/ping 200 "$SV_PONG"
	hf_expect_static "shared fast path: ping" "$HF_WWW" "$HF_LOG" /~carol /~carol/api/ping

	ONE='/~carol/api/collections/blog/entries/hello-world?fields=title'
	expect "shared fast path: an entry" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
	hf_expect_static "shared fast path: an entry" "$HF_WWW" "$HF_LOG" /~carol "$ONE"
	BLOG="{\"data\":{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,\"mount\":null,\"api_url\":\"$HF_U\/collections\/blog\"}}"
	expect "shared fast path: a collection" GET /~carol/api/collections/blog 200 "$BLOG"
	hf_expect_static "shared fast path: a collection" "$HF_WWW" "$HF_LOG" /~carol /~carol/api/collections/blog
	for uri in /~carol/api/collections /~carol/api/collections/ \
		'/~carol/api/collections/blog/entries?limit=2&fields=id,title&sort=-date' \
		'/~carol/api/collections/blog/entries?filter[title:contains]=o&fields=title'; do
		request GET "$uri"
		[ "$STATUS" = 200 ] && pass || fail "shared fast path: GET $uri" "$STATUS $BODY"
		hf_expect_static "shared fast path: $uri" "$HF_WWW" "$HF_LOG" /~carol "$uri"
	done
	# HEAD of a published answer: Apache's, headers only.
	request HEAD /~carol/api/collections/blog
	[ "$STATUS" = 200 ] && [ -z "$BODY" ] && pass || fail "shared fast path: HEAD" "$STATUS $BODY"
	expect_header "shared fast path: HEAD's type" 'Content-Type: application/json'
	expect_header "shared fast path: HEAD's length" \
		"Content-Length: $(stat -c %s "$(hf_file "$HF_WWW" /~carol/api/collections/blog)")"
	access_sync "$HF_LOG" /~carol
	[ "$(access_seen "$HF_LOG" HEAD /~carol/api/collections/blog)" = 0 ] && pass ||
		fail "shared fast path: HEAD of a published answer reached the worker"

	# What Apache would decode, or could take for another file, always goes
	# to cms-api, which answers it: %XX in the query (published by cms-api
	# under its encoded name, never served from it), %XX in the path, a
	# '.' in the query (published too), a byte outside the set.
	hf_expect_dynamic "shared fast path: %XX in the query" \
		'/~carol/api/collections/blog/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=1' 200 \
		"{\"data\":[{\"title\":\"Hello World\"}],\"links\":{\"first\":\"$HF_U\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=1&page=1\",\"last\":\"$HF_U\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=1&page=2\",\"prev\":null,\"next\":\"$HF_U\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=1&page=2\"},\"meta\":{\"current_page\":1,\"from\":1,\"last_page\":2,\"links\":[{\"url\":null,\"label\":\"&laquo; Previous\",\"page\":null,\"active\":false},{\"url\":\"$HF_U\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=1&page=1\",\"label\":\"1\",\"page\":1,\"active\":true},{\"url\":\"$HF_U\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=1&page=2\",\"label\":\"2\",\"page\":2,\"active\":false},{\"url\":\"$HF_U\/collections\/blog\/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=1&page=2\",\"label\":\"Next &raquo;\",\"page\":2,\"active\":false}],\"path\":\"$HF_U\/collections\/blog\/entries\",\"per_page\":1,\"to\":1,\"total\":2}}"
	[ -f "$(hf_file "$HF_WWW" '/~carol/api/collections/blog/entries?filter%5Btitle%3Acontains%5D=o&fields=title&limit=1')" ] &&
		pass || fail "shared fast path: cms-api published the %XX query (what Apache must not serve)"
	hf_expect_dynamic "shared fast path: %XX in the path" /~carol/api/collections/bl%6Fg 200 "$BLOG"
	hf_expect_dynamic "shared fast path: a '.' in the query" \
		'/~carol/api/collections/blog/entries/hello-world?fields=title&x=a.php' 200 '{"data":{"title":"Hello World"}}'
	hf_expect_dynamic "shared fast path: a byte outside the set" \
		'/~carol/api/collections/blog/entries/hello-world?fields=title&x=a*b' 200 '{"data":{"title":"Hello World"}}'

	# Nothing in cms-api-public is served unless the rule handed it over:
	# no listing (which Options Indexes gives public_html itself), no
	# published file fetched by its name.
	request GET /~carol/
	case "$BODY" in *"Index of"*) pass ;; *) fail "shared fast path: public_html is listed (the control)" "$STATUS $BODY" ;; esac
	for uri in /~carol/cms-api-public/ /~carol/cms-api-public/current/ /~carol/cms-api-public/current/~carol/api/ \
		/~carol/cms-api-public/current/~carol/api/collections@.json /~carol/cms-api-public/.htaccess; do
		request GET "$uri"
		[ "$STATUS" = 404 ] && pass || fail "shared fast path: GET $uri is not served" "$STATUS $BODY"
	done
	# A file that went between the -f test and Apache's lookup (the link
	# swapped just then): cms-api-public/.htaccess hands the request to
	# cms-api. Made happen here by a directory whose .htaccess redirects
	# into cms-api-public to a name never published: cms-api answers the
	# request line, /~carol/race/x, with its own 404.
	mkdir -p "$HF_WWW/race"
	printf 'RewriteEngine On\nRewriteRule ^ ../cms-api-public/current/~carol/api/gone@.json [L]\n' >"$HF_WWW/race/.htaccess"
	expect "shared fast path: a published file gone meanwhile goes to cms-api" GET /~carol/race/x 404 "$SV_NOT_FOUND"

	# An edit: fresh within a second (the link swapped), then published and
	# served by Apache again.
	HF_ENTRY="$HF_HOME/site/content/collections/blog/en/2024-01-10.hello-world.md"
	sed -i "s/^title: 'Hello World'/title: 'Hello Edited'/" "$HF_ENTRY"
	until_answer "shared fast path: an edit shows within a second" "$ONE" '{"data":{"title":"Hello Edited"}}' 1
	[ ! -e "$(hf_file "$HF_WWW" /~carol/api/collections/blog)" ] && pass ||
		fail "shared fast path: an edit leaves the old answers published"
	expect "shared fast path: the fresh answer" GET "$ONE" 200 '{"data":{"title":"Hello Edited"}}'
	hf_expect_static "shared fast path: the fresh answer" "$HF_WWW" "$HF_LOG" /~carol "$ONE"

	# The recipe in a subdirectory: /~carol/shop/api, its files below
	# public_html/shop/cms-api-public.
	HF_SHOP_LOG="$HF_HOME/cms-api-shop/access.log"
	HF_SU='http:\/\/cms.example\/~carol\/shop\/api'
	hf_start "$HF_WWW/shop" /~carol/shop cms-api-shop
	expect "shared fast path, subdirectory: a collection" GET /~carol/shop/api/collections/blog 200 \
		"{\"data\":{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,\"mount\":null,\"api_url\":\"$HF_SU\/collections\/blog\"}}"
	hf_expect_static "shared fast path, subdirectory" "$HF_WWW/shop" "$HF_SHOP_LOG" /~carol/shop \
		/~carol/shop/api/collections/blog
	[ "$(access_seen "$HF_LOG" GET /~carol/shop/api/collections/blog)" = 0 ] && pass ||
		fail "shared fast path, subdirectory: ~carol's own cms-api answered it"

	# Apache stops: mod_fcgid stops the workers, their watchers withdraw
	# the published answers. An edit meanwhile is seen once Apache is
	# back: the first answer comes from cms-api, fresh.
	stop_server
	for _ in $(seq 1 30); do
		[ -L "$HF_WWW/cms-api-public/current" ] || [ -L "$HF_WWW/shop/cms-api-public/current" ] || break
		sleep 0.1
	done
	[ ! -L "$HF_WWW/cms-api-public/current" ] && [ ! -L "$HF_WWW/shop/cms-api-public/current" ] && pass ||
		fail "shared fast path: the links stay after the workers stopped"
	sed -i "s/^title: 'Hello Edited'/title: 'Hello World'/" "$HF_ENTRY"
	APACHE_EXTRA_CONF=$HF_CONF WORKER_PROCS=1
	start_server "$hf_ini" /api
	APACHE_EXTRA_CONF= WORKER_PROCS=
	before=$(access_seen "$HF_LOG" GET "$ONE")
	expect "shared fast path: an edit while Apache was down" GET "$ONE" 200 '{"data":{"title":"Hello World"}}'
	access_sync "$HF_LOG" /~carol
	[ "$(access_seen "$HF_LOG" GET "$ONE")" = "$((before + 1))" ] && pass ||
		fail "shared fast path: the first answer after the restart came from cms-api"
	stop_server
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
