#!/bin/sh
# Builds the libFuzzer targets with clang, ASan and UBSan into $1
# (default ./fuzz-build): fuzz_frontmatter (front matter and YAML),
# fuzz_config (the INI file), fuzz_cache_entry (a stored cache entry),
# fuzz_query (the query string, its filters and sort) and fuzz_url_decode
# (percent-decoding and paths). Run one with, e.g.:
#   fuzz-build/fuzz_frontmatter -max_total_time=120 tests/fuzz/corpus/frontmatter
# Needs clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-fuzz-build}
mkdir -p "$out"

# The sources include autoconfig.h, which only configure writes; an empty
# one in a scratch directory stands in for it.
conf=$(mktemp -d)
trap 'rm -rf "$conf"' EXIT
: >"$conf/autoconfig.h"

# Undefined behaviour stops the run like a crash (UBSan would only print).
flags="-g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$conf -I$top/src"

clang $flags "$top/tests/fuzz/fuzz_frontmatter.c" "$top/src/strbuf.c" "$top/src/value.c" \
	"$top/src/jsonw.c" "$top/src/site/yaml.c" "$top/src/site/frontmatter.c" \
	$(pkg-config --cflags --libs yaml-0.1) -lm -o "$out/fuzz_frontmatter"
clang $flags -DSYSCONFDIR='"/etc"' "$top/tests/fuzz/fuzz_config.c" "$top/src/config.c" \
	"$top/src/netaddr.c" "$top/src/strbuf.c" $(pkg-config --cflags --libs inih) -o "$out/fuzz_config"
clang $flags -DSYSCONFDIR='"/etc"' "$top/tests/fuzz/fuzz_cache_entry.c" "$top/src/cache.c" \
	"$top/src/cache_file.c" "$top/src/site/shared.c" "$top/src/response.c" "$top/src/request.c" \
	"$top/src/jsonw.c" "$top/src/value.c" "$top/src/log.c" "$top/src/config.c" "$top/src/netaddr.c" "$top/src/strbuf.c" \
	$(pkg-config --cflags --libs inih) -o "$out/fuzz_cache_entry"
clang $flags -DSYSCONFDIR='"/etc"' "$top/tests/fuzz/fuzz_query.c" "$top/src/request.c" \
	"$top/src/query/filter.c" "$top/src/query/regex.c" "$top/src/query/sort.c" "$top/src/php.c" \
	"$top/src/value.c" "$top/src/jsonw.c" "$top/src/site/yaml.c" "$top/src/cache.c" \
	"$top/src/cache_file.c" "$top/src/site/shared.c" "$top/src/response.c" "$top/src/log.c" \
	"$top/src/config.c" "$top/src/netaddr.c" "$top/src/strbuf.c" \
	$(pkg-config --cflags --libs inih yaml-0.1 libpcre2-8) -lm -o "$out/fuzz_query"
clang $flags "$top/tests/fuzz/fuzz_url_decode.c" "$top/src/request.c" "$top/src/strbuf.c" \
	-o "$out/fuzz_url_decode"
echo "built $out/fuzz_frontmatter $out/fuzz_config $out/fuzz_cache_entry $out/fuzz_query $out/fuzz_url_decode"
