# What README.md's Apache and shared-hosting sections tell a new user to
# write, taken from README.md itself: the INI blocks give a working API on
# a site, and the sed for a make install build points etc/apache-cms-api.conf
# at /usr/local. No web server is involved: once, in the first pass
# (t_servers and the Apache pass run the snippet itself).
once_for_all_servers || return 0

README="$HERE/../../README.md"
# readme_block HEADING-PATTERN FIRST-LINE-PATTERN: the indented block of
# README.md that starts with a line matching FIRST-LINE-PATTERN after the
# line matching HEADING-PATTERN, unindented, up to its first blank line.
readme_block() {
	awk -v h="$1" -v f="$2" '$0 ~ h {on = 1} on && !grab && $0 ~ f {grab = 1}
		grab && /^$/ {exit} grab {print substr($0, 5)}' "$README"
}

# --- Apache: the INI of step 2, with a site and a cache directory here ----------
RM="$T/readme"
mkdir -p "$RM/cache"
readme_block '^\*\*2\. The INI\*\*' '^    \[api\]$' >"$RM/apache.ini"
grep -q '^enabled = true' "$RM/apache.ini" && grep -q '^collections = true' "$RM/apache.ini" && pass ||
	fail "readme: the Apache INI block" "$(cat "$RM/apache.ini")"
sed -i "s#^root = /srv/www/site#root = $FIXTURES/site#" "$RM/apache.ini"
printf '[cache]\ndir = %s/cache\n' "$RM" >>"$RM/apache.ini"
out=$("$CMS_API_BIN" -c "$RM/apache.ini" check 2>&1)
case "$out" in
*"ok: $FIXTURES/site: 2 sites, 4 collections, 11 entries") pass ;;
*) fail "readme: check passes on the Apache INI" "$out" ;;
esac
out=$("$CMS_API_BIN" -c "$RM/apache.ini" get /api/collections/docs | tail -n 1)
case "$out" in
'{"data":{"handle":"docs",'*) pass ;;
*) fail "readme: the Apache INI opens the collections" "$out" ;;
esac

# --- Apache: the sed for a make install build ------------------------------------
cp "$HERE/../../etc/apache-cms-api.conf" "$RM/cms-api.conf"
# The sed command as printed (its continued lines), on the copy.
cmd=$(awk '/^    sed -i / {on = 1} on {print substr($0, 5); if ($0 !~ /\\$/) exit}' "$README")
cmd=${cmd//\/etc\/apache2\/conf-available\/cms-api.conf/$RM/cms-api.conf}
[ -n "$cmd" ] && sh -c "$cmd" && pass || fail "readme: the sed for /usr/local runs" "$cmd"
got=$(grep -E '^ *(Alias|FcgidWrapper|FcgidInitialEnv) ' "$RM/cms-api.conf" | sed 's/^ *//')
want="FcgidInitialEnv CMS_API_CONFIG /usr/local/etc/cms-api.ini
Alias /api /usr/local/sbin/cms-api
FcgidWrapper /usr/local/sbin/cms-api virtual"
[ "$got" = "$want" ] && pass || fail "readme: the snippet points at /usr/local" "$got"
! grep -q '/usr/sbin/cms-api' "$RM/cms-api.conf" && pass ||
	fail "readme: nothing of the snippet names /usr/sbin/cms-api" "$(grep -n /usr/sbin "$RM/cms-api.conf")"

# --- shared hosting: the home directory README draws -----------------------------
HOME_DIR="$RM/home"
mkdir -p "$HOME_DIR/cms-api"
cp -r "$FIXTURES/site" "$HOME_DIR/site"
readme_block '^## On shared hosting' '^    \[api\]$' >"$HOME_DIR/cms-api/cms-api.ini"
grep -q '^root = \.\./site' "$HOME_DIR/cms-api/cms-api.ini" && pass ||
	fail "readme: the shared-hosting INI block" "$(cat "$HOME_DIR/cms-api/cms-api.ini")"
out=$("$CMS_API_BIN" -c "$HOME_DIR/cms-api/cms-api.ini" check 2>&1)
case "$out" in
*"ok: $HOME_DIR/cms-api/../site: 2 sites, 4 collections, 11 entries") pass ;;
*) fail "readme: check passes on the shared-hosting INI" "$out" ;;
esac
# One request as mod_fcgid would start it (outside FastCGI: CGI): the
# cache directory and the log are made beside the INI, nothing else.
out=$(env GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET REQUEST_URI=/api/ping \
	CMS_API_CONFIG="$HOME_DIR/cms-api/cms-api.ini" "$CMS_API_BIN" </dev/null | tail -n 1)
[ "$out" = '{"ping":"pong"}' ] && pass || fail "readme: the shared-hosting INI answers" "$out"
[ -d "$HOME_DIR/cms-api/cache" ] && pass || fail "readme: cache/ is made beside the INI" "$(ls -la "$HOME_DIR/cms-api")"
