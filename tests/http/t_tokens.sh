# Per-user API tokens (middleware = auth:token) through the web server with
# several workers: `cms-api token create/list/revoke`, the check (no
# token, wrong secret, wrong id, expired, revoked, an owner who left the
# site), abilities (404 as if disabled), the bearer header's exact form,
# one cached URL asked with and without a token, a database missing or
# unreadable (503 and one log line per worker), and the new database's
# mode.

TKD="$T/tokens"
mkdir -p "$TKD"
cp -r "$FIXTURES/site" "$TKD/site"
printf 'id: user-carl\nname: Carl\n' >"$TKD/site/users/carl@example.com.yaml"
TK_DB="$TKD/tokens.sqlite"
TK_INI=$(SITE="$TKD/site" CACHE="$TKD/cache" site_ini tokens <<INI
[api]
enabled = true
middleware = auth:token
[auth]
database = $TK_DB
[resources]
collections = true
taxonomies = true
navs = true
INI
)
tk() { "$CMS_API_BIN" -c "$TK_INI" token "$@"; }
# tk_list: `token list` with every moment written as TIME, columns one
# space apart.
tk_list() { tk list 2>&1 | sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/TIME/g' | tr -s ' '; }
# tk_create NAME ARGS...: creates a token, sets NAME to its ID|SECRET.
tk_create() {
	local var=$1 out
	shift
	out=$(tk create "$@" 2>"$TKD/create.err")
	if [[ "$out" =~ ^[0-9]+\|[A-Za-z0-9]{40}$ ]]; then pass; else
		fail "tokens: create $*: ID|SECRET on stdout" "got: $out $(cat "$TKD/create.err")"; fi
	printf -v "$var" '%s' "$out"
}

# --- the command line ----------------------------------------------------------
expect_cmd "tokens: list, first use" 0 "no tokens in $TK_DB" tk list
[ "$(stat -c %a "$TK_DB")" = 600 ] && pass ||
	fail "tokens: a new database has mode 0600" "$(stat -c %a "$TK_DB")"
rm -f "$TK_DB"
(umask 0 && tk list >/dev/null)
[ "$(stat -c %a "$TK_DB")" = 600 ] && pass ||
	fail "tokens: a new database has mode 0600 whatever the umask" "$(stat -c %a "$TK_DB")"

tk_create TK_ADA user-ada everything
grep -qx "Token 1 of user-ada: it is not shown again. Send it as the header 'Authorization: Bearer 1|...'" \
	"$TKD/create.err" && pass || fail "tokens: create says how to send it" "$(cat "$TKD/create.err")"
tk_create TK_BOB bob@example.com blog-only --abilities 'collections:blog'
tk_create TK_OLD user-ada old --expires 2000-01-01
tk_create TK_GONE user-ada revoked --abilities '*'
tk_create TK_CARL user-carl carl --expires 3650d
tk_create TK_TAX user-bob tags --abilities taxonomies:tags,navs
tk_create TK_TAXC user-bob tags-and-entries --abilities 'taxonomies:tags, collections'
expect_cmd "tokens: revoke" 0 "token 4 revoked" tk revoke 4
expect_cmd "tokens: revoke an unknown id" 1 "cms-api: there is no token 4 in $TK_DB" tk revoke 4
expect_cmd "tokens: revoke needs an id" 2 "cms-api: token revoke takes the id of one token
usage: cms-api token create USER NAME [--abilities LIST] [--expires WHEN]
       cms-api token list
       cms-api token revoke ID" tk revoke x
expect_cmd "tokens: create for someone who is not a user" 1 \
	"cms-api: 'nobody@example.com' is not a user of the site in $TKD/site (neither the id nor the e-mail of a file in users/): a token belongs to a user" \
	tk create nobody@example.com x
expect_cmd "tokens: an ability that is not one" 2 \
	"cms-api: --abilities: 'users:user-ada' is not an ability: users have no handles, use 'users'" \
	tk create user-ada x --abilities users:user-ada
expect_cmd "tokens: an expiry that is not one" 2 \
	"cms-api: --expires: '2 weeks' is neither a duration (30d, 12h, 90m, 3600s) nor a UTC date (2030-01-31, 2030-01-31T12:00:00Z)" \
	tk create user-ada x --expires '2 weeks'
TK_WANT_LIST="ID OWNER NAME ABILITIES CREATED LAST USED EXPIRES
1 user-ada everything * TIME never never
2 user-bob blog-only collections:blog TIME never never
3 user-ada old * TIME never TIME (expired)
5 user-carl carl * TIME never TIME
6 user-bob tags taxonomies:tags,navs TIME never never
7 user-bob tags-and-entries taxonomies:tags,collections TIME never never"
got=$(tk_list)
[ "$got" = "$TK_WANT_LIST" ] && pass || fail "tokens: list" "expected:" "$TK_WANT_LIST" "got:" "$got"
if grep -aq "${TK_ADA#*|}" "$TK_DB" || tk list | grep -q "${TK_ADA#*|}"; then
	fail "tokens: the secret is stored or listed"; else pass; fi

# --- the check ---------------------------------------------------------------------
start_server "$TK_INI" /api CMS_API_AUTH_TOKEN shared-s3cret
TK_UNAUTH='{"message":"Unauthenticated."}'
TK_404='{"message":"Not found."}'
TK_PONG='{"ping":"pong"}'
bearer() { printf 'Authorization: Bearer %s' "$1"; }
expect "tokens: no token" GET /api/ping 401 "$TK_UNAUTH"
expect_header "tokens: no token" "WWW-Authenticate: Bearer"
expect "tokens: valid" GET /api/ping 200 "$TK_PONG" -H "$(bearer "$TK_ADA")"
expect "tokens: the scheme in any case" GET /api/ping 200 "$TK_PONG" -H "Authorization: bEARER $TK_ADA"
expect "tokens: wrong secret" GET /api/ping 401 "$TK_UNAUTH" -H "$(bearer "1|${TK_BOB#*|}")"
expect_header "tokens: wrong secret" "WWW-Authenticate: Bearer"
expect "tokens: secret cut short" GET /api/ping 401 "$TK_UNAUTH" -H "$(bearer "${TK_ADA%?}")"
expect "tokens: wrong id" GET /api/ping 401 "$TK_UNAUTH" -H "$(bearer "99|${TK_ADA#*|}")"
expect "tokens: no id" GET /api/ping 401 "$TK_UNAUTH" -H "$(bearer "${TK_ADA#*|}")"
expect "tokens: expired" GET /api/ping 401 "$TK_UNAUTH" -H "$(bearer "$TK_OLD")"
expect "tokens: revoked" GET /api/ping 401 "$TK_UNAUTH" -H "$(bearer "$TK_GONE")"
expect "tokens: the shared token is accepted as well" GET /api/collections/team 200 \
	"{\"data\":{\"handle\":\"team\",\"title\":\"Team\",\"structure\":{\"max_depth\":1,\"expects_root\":false},\"mount\":null,\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/collections\/team\"}}" \
	-H 'Authorization: Bearer shared-s3cret'
expect "tokens: revoked while the workers run" GET /api/ping 200 "$TK_PONG" -H "$(bearer "$TK_CARL")"
tk revoke 5 >/dev/null
expect "tokens: revoked while the workers run" GET /api/ping 401 "$TK_UNAUTH" -H "$(bearer "$TK_CARL")"

# The header is exactly "Bearer", spaces and the token.
expect "tokens: another scheme first" GET /api/ping 401 "$TK_UNAUTH" \
	-H "Authorization: Basic Zm9v bearer $TK_ADA"
expect "tokens: a longer scheme word" GET /api/ping 401 "$TK_UNAUTH" -H "Authorization: XBearer $TK_ADA"
expect "tokens: a comma after the token" GET /api/ping 401 "$TK_UNAUTH" \
	-H "Authorization: Bearer $TK_ADA,garbage"
expect "tokens: several spaces" GET /api/ping 200 "$TK_PONG" -H "Authorization: Bearer    $TK_ADA"
# lighttpd and Apache join a repeated header with ", ": the comma makes
# it no token. nginx 1.22 refuses the request itself (its own 400 page).
request GET /api/ping -H "$(bearer "$TK_ADA")" -H "$(bearer "$TK_ADA")"
case "$SERVER $STATUS $BODY" in
"nginx 400 "*"<html>"* | "lighttpd 401 $TK_UNAUTH" | "apache 401 $TK_UNAUTH") pass ;;
*) fail "tokens: two Authorization headers" "$STATUS $BODY" ;;
esac

# --- abilities ----------------------------------------------------------------------
TK_TEAM="{\"data\":{\"handle\":\"team\",\"title\":\"Team\",\"structure\":{\"max_depth\":1,\"expects_root\":false},\"mount\":null,\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/collections\/team\"}}"
expect "tokens: abilities: /ping needs none" GET /api/ping 200 "$TK_PONG" -H "$(bearer "$TK_BOB")"
expect "tokens: abilities: another collection" GET /api/collections/team 404 "$TK_404" \
	-H "$(bearer "$TK_BOB")"
expect "tokens: abilities: the list of collections needs the type" GET /api/collections 404 \
	"$TK_404" -H "$(bearer "$TK_BOB")"
expect "tokens: abilities: another type" GET /api/navs 404 "$TK_404" -H "$(bearer "$TK_BOB")"
expect "tokens: abilities: its collection" GET '/api/collections/blog/entries/hello-world?fields=title' \
	200 '{"data":{"title":"Hello World"}}' -H "$(bearer "$TK_BOB")"
expect "tokens: abilities: a type" GET /api/navs/main 200 \
	"{\"data\":{\"handle\":\"main\",\"title\":\"Main Menu\",\"max_depth\":2,\"expects_root\":false,\"api_url\":\"http:\/\/127.0.0.1:$PORT\/api\/navs\/main\"}}" \
	-H "$(bearer "$TK_TAX")"
request GET /api/taxonomies/tags/terms/news -H "$(bearer "$TK_TAX")"
[ "$STATUS" = 200 ] && pass || fail "tokens: abilities: a taxonomy's term" "$STATUS $BODY"
expect "tokens: abilities: a term's entries need the collections" GET \
	/api/taxonomies/tags/terms/news/entries 404 "$TK_404" -H "$(bearer "$TK_TAX")"
request GET '/api/taxonomies/tags/terms/news/entries?fields=title' -H "$(bearer "$TK_TAXC")"
[ "$STATUS" = 200 ] && [[ "$BODY" == *'"title":"Hello World"'* ]] && pass ||
	fail "tokens: abilities: a term's entries with the collections" "$STATUS $BODY"

# --- one cached URL, asked by different tokens ------------------------------------------
# Ada's answer is cached; its stored bytes are then marked (and sealed
# again), so that a hit shows. Bob, whose abilities do not cover it, and a request without a
# token never get it.
TK_STORED() { grep -l '"title":"Team"' "$TKD"/cache/responses-*/* 2>/dev/null | head -1; }
expect "tokens: cache: filled with a token" GET /api/collections/team 200 "$TK_TEAM" -H "$(bearer "$TK_ADA")"
for _ in $(seq 1 100); do [ -n "$(TK_STORED)" ] && break; sleep 0.05; done
tk_entry=$(TK_STORED)
if [ -n "$tk_entry" ]; then
	pass
	sed -i 's/"title":"Team"/"title":"Xeam"/' "$tk_entry"
	reseal_entry "$tk_entry"
else
	fail "tokens: cache: the answer is stored" "$(find "$TKD/cache" -path '*/responses-*/*')"
fi
TK_XEAM=${TK_TEAM/\"Team\"/\"Xeam\"}
for _ in 1 2 3 4; do # every worker
	expect "tokens: cache: a hit for the token" GET /api/collections/team 200 "$TK_XEAM" \
		-H "$(bearer "$TK_ADA")"
	expect "tokens: cache: no token, no cached answer" GET /api/collections/team 401 "$TK_UNAUTH"
	expect "tokens: cache: a token without the ability, no cached answer" GET \
		/api/collections/team 404 "$TK_404" -H "$(bearer "$TK_BOB")"
	expect "tokens: cache: a wrong secret, no cached answer" GET /api/collections/team 401 \
		"$TK_UNAUTH" -H "$(bearer "1|${TK_BOB#*|}")"
done

# --- an owner who left the site ------------------------------------------------------------
tk_create TK_CY user-carl carl-again
for _ in 1 2 3 4; do
	expect "tokens: the owner is a user" GET /api/ping 200 "$TK_PONG" -H "$(bearer "$TK_CY")"
done
rm "$TKD/site/users/carl@example.com.yaml"
for _ in $(seq 1 50); do
	request GET /api/ping -H "$(bearer "$TK_CY")"
	[ "$STATUS" = 401 ] && break
	sleep 0.1
done
for _ in 1 2 3 4; do # every worker, each of which had found the owner before
	expect "tokens: the owner left the site" GET /api/ping 401 "$TK_UNAUTH" -H "$(bearer "$TK_CY")"
done
expect "tokens: the others still pass" GET /api/ping 200 "$TK_PONG" -H "$(bearer "$TK_ADA")"

# last_used_at was recorded for the tokens that passed, and only them.
got=$(tk_list | awk 'NR > 1 {print $1, $6}')
TK_WANT_USED="1 TIME
2 TIME
3 never
6 TIME
7 TIME
8 TIME"
[ "$got" = "$TK_WANT_USED" ] && pass || fail "tokens: last used" "expected:" "$TK_WANT_USED" "got:" "$got"
stop_server

# --- a database missing or unreadable: 503 and one line per worker ------------------------
TKU="$TKD/unprivileged"
mkdir -p "$TKU"
cp "$TK_DB" "$TKU/tokens.sqlite"
TKU_LOG="$TKU/worker.log"
tku_ini() { # NAME DATABASE
	printf '[api]\nenabled = true\nmiddleware = auth:token\n[auth]\ndatabase = %s\n' "$2" >"$TKU/$1.ini"
	printf '[content]\nroot = %s/site\n[cache]\ndir = %s/cache\n[log]\ntarget = %s\n' \
		"$TKD" "$TKU" "$TKU_LOG" >>"$TKU/$1.ini"
	printf '[resources]\ncollections = true\n' >>"$TKU/$1.ini"
	echo "$TKU/$1.ini"
}
tku_ini unreadable "$TKU/tokens.sqlite" >/dev/null
tku_ini missing "$TKU/nothing-here.sqlite" >/dev/null
: >"$TKU_LOG"
run_workers_unprivileged "$TKU"
tku_lines() { grep -c 'token database .* cannot be read' "$TKU_LOG" 2>/dev/null || true; }
TK_503='{"message":"Service Unavailable"}'

start_server "$TKU/unreadable.ini" /api
expect "tokens: readable by the workers" GET /api/ping 200 "$TK_PONG" -H "$(bearer "$TK_ADA")"
chmod 000 "$TKU/tokens.sqlite"
for _ in $(seq 1 6); do
	expect "tokens: unreadable: 503" GET /api/ping 503 "$TK_503" -H "$(bearer "$TK_ADA")"
done
expect "tokens: unreadable: no token is still 401" GET /api/ping 401 "$TK_UNAUTH"
n=$(tku_lines)
[ "$n" -ge 1 ] && [ "$n" -le 2 ] && pass ||
	fail "tokens: unreadable: one log line per worker (2 workers)" "$n lines: $(cat "$TKU_LOG")"
grep -q 'cannot be read: unable to open database file (Permission denied)' "$TKU_LOG" && pass ||
	fail "tokens: unreadable: the log says why" "$(cat "$TKU_LOG")"
chmod 600 "$TKU/tokens.sqlite"
expect "tokens: readable again" GET /api/ping 200 "$TK_PONG" -H "$(bearer "$TK_ADA")"
stop_server

: >"$TKU_LOG"
start_server "$TKU/missing.ini" /api
for _ in $(seq 1 6); do
	expect "tokens: missing: 503" GET /api/collections/team 503 "$TK_503" -H "$(bearer "$TK_ADA")"
done
n=$(tku_lines)
[ "$n" -ge 1 ] && [ "$n" -le 2 ] && pass ||
	fail "tokens: missing: one log line per worker (2 workers)" "$n lines: $(cat "$TKU_LOG")"
[ ! -e "$TKU/nothing-here.sqlite" ] && pass || fail "tokens: workers never create the database"
run_workers_as_tester
stop_server

# --- a secret that cannot be shown ----------------------------------------------
# A full standard output: the new token is revoked at once (nobody could
# use it) and the command fails saying so, rather than succeed silently
# with the secret lost.
TKF_INI=$(SITE="$TKD/site" CACHE="$TKD/cache" site_ini tokens-full <<INI
[auth]
database = $TKD/full.sqlite
INI
)
expect_cmd "tokens: create to a full output fails" 1 \
	"cms-api: cannot write the new token to standard output (No space left on device): token 1 revoked, since nobody could use it" \
	sh -c '"$1" -c "$2" token create user-ada lost >/dev/full' sh "$CMS_API_BIN" "$TKF_INI"
expect_cmd "tokens: the token that could not be shown is gone" 0 "no tokens in $TKD/full.sqlite" \
	"$CMS_API_BIN" -c "$TKF_INI" token list
