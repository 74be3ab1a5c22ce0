# cms-api check says when the cache directory cannot be used (issue 19,
# 5): the workers would answer uncached, each from an index of its own.
# Run as a user that file permissions hold for (nobody, when the tests run
# as root: root writes anywhere).

UC="$T/uncached"
mkdir -p "$UC/readonly" "$UC/fine"
chmod 555 "$UC/readonly"
printf 'not a folder\n' >"$UC/file"
chmod 755 "$T" "$UC"
[ "$(id -u)" = 0 ] && chown nobody "$UC/fine"
as_worker_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"
	else
		"$@"
	fi
}
# uncached_check NAME DIR WANT: `cms-api check` with [cache] dir = DIR
# prints WANT (a glob) and still passes (a warning fails nothing).
uncached_check() {
	local name=$1 dir=$2 want=$3 ini out
	ini=$(SITE="$FIXTURES/site" CACHE="$dir" site_ini "uncached-$name" </dev/null)
	chmod 644 "$ini"
	if out=$(as_worker_user "$CMS_API_BIN" -c "$ini" check 2>&1); then
		# shellcheck disable=SC2254
		case "$out" in $want) pass ;; *) fail "uncached: check: $name" "$out" ;; esac
	else
		fail "uncached: check: $name passes (a warning)" "$out"
	fi
}
uncached_check read-only "$UC/readonly" \
	"*warning: [[]cache] dir $UC/readonly is not writable by the user *(Permission denied): workers running as * answer uncached*"
uncached_check "not a folder" "$UC/file" \
	"*warning: [[]cache] dir $UC/file is not a directory: workers cannot share an index or cache answers*"
ini=$(SITE="$FIXTURES/site" CACHE="$UC/fine" site_ini uncached-fine </dev/null)
chmod 644 "$ini"
out=$(as_worker_user "$CMS_API_BIN" -c "$ini" check 2>&1)
case "$out" in *"[cache] dir"*) fail "uncached: a usable folder is not warned about" "$out" ;; *) pass ;; esac
