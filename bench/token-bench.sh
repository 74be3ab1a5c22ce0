#!/bin/bash
# token-bench.sh [BUILD_DIR] [RUNS]: the cost of the token check per
# request, in-process (bench/token-bench.c: app_handle and app_finish on a
# cached GET, no HTTP), in one run: no token configured, the shared
# [api] auth_token, and a per-user token (middleware = auth:token), on the
# test fixture site (2 users) and on the same site with 1,000 users (the
# token's owner, the last in file order, is looked up among them). Prints a Markdown table of the median
# and the mean per request over RUNS requests (default 200000).
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
runs=${2:-200000}
top=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")
work=$(mktemp -d "${TMPDIR:-/tmp}/cms-api-tokbench-XXXXXX")
trap 'rm -rf "$work"' EXIT

make -s -C "$build" bench/token-bench >/dev/null
tbench="$build/bench/token-bench"

uri='/api/collections/blog/entries/hello-world'
# ini NAME SITE [API LINES...]: a config with its own cache directory.
ini() {
	local name=$1 site=$2
	shift 2
	{
		printf '[api]\nenabled = true\n'
		printf '%s\n' "$@"
		printf '[auth]\ndatabase = %s/tokens.sqlite\n' "$work"
		printf '[content]\nroot = %s\n[cache]\ndir = %s/cache-%s\n' "$site" "$work" "$name"
		printf '[log]\ntarget = stderr\n[resources]\ncollections = true\n'
	} >"$work/$name.ini"
	echo "$work/$name.ini"
}

cp -r "$top/tests/fixtures/site" "$work/site"
cp -r "$top/tests/fixtures/site" "$work/site-1000"
for i in $(seq 1 1000); do
	printf 'id: user-%04d\nname: User %d\n' "$i" "$i" >"$work/site-1000/users/u$i@example.com.yaml"
done
# The owner: the last user of the list the check looks it up in.
bob=$("$build/cms-api" -c "$(ini cli "$work/site")" token create user-bob bench \
	--abilities collections:blog 2>/dev/null)
last=$("$build/cms-api" -c "$(ini cli-1000 "$work/site-1000")" token create user-0999 bench \
	--abilities collections:blog 2>/dev/null)

echo "| site | token check | median | mean | status, cache hits |"
echo "|---|---|---:|---:|---|"
for site in site site-1000; do
	users=$([ "$site" = site ] && echo 2 || echo 1002)
	secret=$([ "$site" = site ] && echo "$bob" || echo "$last")
	for mode in none shared per-user; do
		case $mode in
		none) f=$(ini "$site-$mode" "$work/$site"); auth=- ;;
		shared) f=$(ini "$site-$mode" "$work/$site" 'auth_token = s3cret-shared-token')
			auth='Bearer s3cret-shared-token' ;;
		per-user) f=$(ini "$site-$mode" "$work/$site" 'middleware = auth:token')
			auth="Bearer $secret" ;;
		esac
		read -r median mean status hits < <("$tbench" "$f" "$uri" "$auth" "$runs")
		echo "| $users users | $mode | $median µs | $mean µs | $status, $hits of $runs |"
	done
done
