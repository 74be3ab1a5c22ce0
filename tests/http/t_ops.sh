# Operations: --version names the build's features; check and warm count
# the files they read on a terminal (script(1) gives them one) and say
# nothing of it to a pipe, and both end with a summary.
once_for_all_servers || return 0

SITE="$FIXTURES/site"
OPS_CACHE="$T/ops-cache"
ops_ini=$(CACHE="$OPS_CACHE" site_ini ops <<INI
[api]
enabled = true
INI
)

# --- --version -------------------------------------------------------------------
ops_version=$("$CMS_API_BIN" --version)
ops_rc=$?
ops_shape=$(printf '%s\n' "$ops_version" | sed -E 's/ [0-9]+(\.[0-9a-z]+)*( [0-9]{4}-[0-9]{2}-[0-9]{2})?/ V/g; s/^regex JIT: (yes \(.*\)|no)$/regex JIT: YES-OR-NO/; s/^test hooks: (yes \(.*\)|no)$/test hooks: YES-OR-NO/')
ops_want="cms-api V
cache drivers: file, redis (hiredis V), none, plug-ins (ABI V)
per-user tokens: yes (SQLite V)
rate-limit drivers: file, redis (hiredis V)
regex JIT: YES-OR-NO
worker pool: yes (-n, --listen)
test hooks: YES-OR-NO
libraries: json-c V, inih V, libyaml V, cmark-gfm V, PCRE2 V, zlib V, SQLite V, hiredis V, xxHash V"
if [ "$ops_rc" = 0 ] && [ "$ops_shape" = "$ops_want" ] &&
	[ "$(printf '%s\n' "$ops_version" | head -n 1)" = "cms-api $CMS_API_VERSION" ]; then
	pass
else
	fail "ops: --version names the features" "exit $ops_rc" "$ops_version"
fi
ops_sqlite=$(printf '%s\n' "$ops_version" | sed -n 's/^per-user tokens: yes (SQLite \(.*\))$/\1/p')
case "$ops_version" in
*"SQLite $ops_sqlite, hiredis"*) pass ;;
*) fail "ops: --version: one SQLite version in both lines" "$ops_version" ;;
esac
ops_help=$("$CMS_API_BIN" --help)
for ops_opt in "-c, --config FILE" "-n, --workers N" "--listen PATH|[HOST:]PORT" "-h, --help" "-V, --version"; do
	case "$ops_help" in
	*"  $ops_opt"*) pass ;;
	*) fail "ops: --help lists $ops_opt" "$ops_help" ;;
	esac
done
# Every option --help lists is in the manual, and the pool's keys in the
# INI's manual and the shipped example.
for ops_long in config workers listen help version; do
	grep -qF -- "\\-\\-$ops_long" "$HERE/../../man/cms-api.8" && pass ||
		fail "ops: cms-api(8) documents --$ops_long"
done
for ops_key in "max_requests \" (0)\"" "access \" (false)\"" ".SS [server]"; do
	grep -qF -- "$ops_key" "$HERE/../../man/cms-api.ini.5" && pass ||
		fail "ops: cms-api.ini(5) documents $ops_key"
done
for ops_key in "max_requests = 0" "access = false" "[server]"; do
	grep -qxF -- "$ops_key" "$HERE/../../etc/cms-api.ini" && pass ||
		fail "ops: etc/cms-api.ini shows $ops_key"
done
expect_cmd "ops: an unknown option" 2 "cms-api: unknown option '--nope'
Try 'cms-api --help'." "$CMS_API_BIN" --nope

# --- check and warm on a terminal ---------------------------------------------------
# ops_tty COMMAND...: runs it on a pseudo-terminal; its output, \r\n made \n.
ops_tty() {
	script -qec "$(printf '%q ' "$@")" /dev/null </dev/null | sed 's/\r$//'
}
ops_counted="reading $SITE: 38 files"
ops_check_tty=$(ops_tty "$CMS_API_BIN" -c "$ops_ini" check)
# The counter starts at 0, is rewritten in place, and ends on its total.
case "$ops_check_tty" in
$'\r'"reading $SITE: 0 files"*$'\r'"$ops_counted"$'\n'*"ok: $SITE: 2 sites, 4 collections, 11 entries") pass ;;
*) fail "ops: check counts the files it reads on a terminal" "$(printf '%s' "$ops_check_tty" | od -c | head -n 20)" ;;
esac
ops_check_pipe=$("$CMS_API_BIN" -c "$ops_ini" check 2>&1)
case "$ops_check_pipe" in
*"reading "* | *$'\r'*) fail "ops: check says nothing of its progress to a pipe" "$ops_check_pipe" ;;
*"ok: $SITE: 2 sites, 4 collections, 11 entries") pass ;;
*) fail "ops: check's summary" "$ops_check_pipe" ;;
esac

rm -rf "$OPS_CACHE"
ops_warm_tty=$(ops_tty "$CMS_API_BIN" -c "$ops_ini" warm)
case "$ops_warm_tty" in
$'\r'"reading $SITE: 0 files"*$'\r'"$ops_counted"$'\n'"ok: $SITE: 2 sites, 4 collections, 11 entries; index generation "[0-9]*", "*" MiB, in $OPS_CACHE/index-"*".snap, built in "[0-9]*" s") pass ;;
*) fail "ops: warm counts the files it reads on a terminal" "$ops_warm_tty" ;;
esac
ops_warm_pipe=$("$CMS_API_BIN" -c "$ops_ini" warm 2>&1)
case "$ops_warm_pipe" in
"ok: $SITE: 2 sites, 4 collections, 11 entries; index generation "[0-9]*", "*" MiB, in $OPS_CACHE/index-"*".snap, found in "[0-9]*" s") pass ;;
*) fail "ops: warm, quiet in a pipe, finds the index it built" "$ops_warm_pipe" ;;
esac
stop_server
