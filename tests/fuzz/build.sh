#!/bin/sh
# Builds the libFuzzer targets with clang, ASan and UBSan into $1
# (default ./fuzz-build): fuzz_frontmatter (front matter and YAML),
# fuzz_config (the INI file), fuzz_cache_entry (a stored cache entry),
# fuzz_query (the query string, its filters and sort), fuzz_url_decode
# (percent-decoding and paths), fuzz_fcgi (FastCGI records from a web
# server), fuzz_jsonr (what a shape plug-in gives back), fuzz_phparray
# (config/statamic/sites.php), fuzz_markdown (a markdown field's text and
# options), fuzz_bard (a Bard field's stored value), fuzz_glide (image
# parameters and [images] presets) and fuzz_journal (the sync journal).
# Run one with, e.g.:
#   fuzz-build/fuzz_frontmatter -max_total_time=120 tests/fuzz/corpus/frontmatter
# Needs clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-fuzz-build}
mkdir -p "$out"

# The sources include autoconfig.h, which only configure writes; one in a
# scratch directory stands in for it, with the names buildinfo.c prints.
conf=$(mktemp -d)
trap 'rm -rf "$conf"' EXIT
printf '#define %s "fuzz"\n' PACKAGE_VERSION INIH_MODVERSION >"$conf/autoconfig.h"

# Undefined behaviour stops the run like a crash (UBSan would only print).
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
libs="json-c inih yaml-0.1 libcmark-gfm libpcre2-8 zlib sqlite3 hiredis libxxhash vips libcurl"
cflags="-g -O1 -D_GNU_SOURCE -DSYSCONFDIR=\"/etc\" $sanitize -I$conf -I$top/src -I$top/include $(pkg-config --cflags $libs)"

# Every source but main.c, instrumented once, linked into every target: a
# target then never misses a file that a new dependency brings in.
mkdir -p "$out/obj"
objs=
for src in "$top"/src/*/*.c; do
	[ "$src" = "$top/src/cmd/main.c" ] && continue
	obj="$out/obj/$(echo "${src#"$top"/src/}" | tr / _ | sed 's/\.c$/.o/')"
	# shellcheck disable=SC2086
	clang $cflags -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
	objs="$objs $obj"
done

for target in frontmatter config cache_entry query url_decode fcgi jsonr phparray markdown bard glide journal; do
	# shellcheck disable=SC2086
	clang $cflags -fsanitize=fuzzer "$top/tests/fuzz/fuzz_$target.c" $objs \
		$(pkg-config --libs $libs) -lcmark-gfm-extensions -lm -o "$out/fuzz_$target"
done
echo "built $out/fuzz_frontmatter $out/fuzz_config $out/fuzz_cache_entry $out/fuzz_query $out/fuzz_url_decode $out/fuzz_fcgi $out/fuzz_jsonr $out/fuzz_phparray $out/fuzz_markdown $out/fuzz_bard $out/fuzz_glide $out/fuzz_journal"
