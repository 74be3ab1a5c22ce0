# What the real Statamic sites in ../shared/corpora expose through
# `cms-api get` (run when that folder is there). No web server is
# involved: once, in the first pass.
once_for_all_servers || return 0

CORPORA="$HERE/../../../shared/corpora"
if [ -d "$CORPORA" ]; then
	corpus_ini() { # NAME EXTRA-LINES
		printf '[api]\nenabled = true\n[content]\nroot = %s/%s\n%s\n[resources]\ncollections = true\nsites = true\n' \
			"$CORPORA" "$1" "$2" >"$T/corpus-$1.ini"
		echo "$T/corpus-$1.ini"
	}
	# body_of INI PATH: the body cms-api get prints (its last line).
	body_of() { "$CMS_API_BIN" -c "$1" get "$2" | tail -n 1; }
	expect_body() { # NAME INI PATH BODY
		local got
		got=$(body_of "$2" "$3")
		[ "$got" = "$4" ] && pass || fail "$1" "expected: $4" "got:      $got"
	}
	L='http:\/\/localhost'

	ini=$(corpus_ini amplitude-docs "")
	expect_body "amplitude-docs: sites (Antlers names)" "$ini" /api/sites \
		"{\"data\":[{\"handle\":\"en\",\"name\":\"Statamic\",\"locale\":\"en_US\",\"short_locale\":\"en\",\"url\":\"$L\/docs\"},{\"handle\":\"jp\",\"name\":\"Statamic - Japanese\",\"locale\":\"ja-JP\",\"short_locale\":\"ja\",\"url\":\"$L\/docs\/jp\"}]}"
	expect_body "amplitude-docs: a structured collection" "$ini" /api/collections/pages \
		"{\"data\":{\"handle\":\"pages\",\"title\":\"Pages\",\"structure\":{\"max_depth\":null,\"expects_root\":true},\"mount\":null,\"api_url\":\"$L\/api\/collections\/pages\"}}"
	n=$(body_of "$ini" /api/collections | grep -o '"handle":' | wc -l)
	[ "$n" = 75 ] && pass || fail "amplitude-docs: 75 collections" "got $n"

	ini=$(corpus_ini bedrock "app_name = Bedrock")
	expect_body "bedrock: the fallback site takes app_name" "$ini" /api/sites \
		"{\"data\":[{\"handle\":\"default\",\"name\":\"Bedrock\",\"locale\":\"en_US\",\"short_locale\":\"en\",\"url\":\"$L\/\"}]}"
	expect_body "bedrock: an orderable collection" "$ini" /api/collections/team \
		"{\"data\":{\"handle\":\"team\",\"title\":\"Team\",\"structure\":{\"max_depth\":1,\"expects_root\":false},\"mount\":null,\"api_url\":\"$L\/api\/collections\/team\"}}"
	out=$("$CMS_API_BIN" -c "$ini" check | tail -n 1)
	[ "$out" = "ok: $CORPORA/bedrock: 1 site, 4 collections, 38 entries" ] && pass || fail "bedrock: check" "$out"

	ini=$(corpus_ini brand0n-gg "")
	expect_body "brand0n-gg: a dated and structured collection" "$ini" /api/collections \
		"{\"data\":[{\"handle\":\"pages\",\"title\":\"Pages\",\"structure\":{\"max_depth\":3,\"expects_root\":true},\"mount\":null,\"api_url\":\"$L\/api\/collections\/pages\"}]}"

	ini=$(corpus_ini inertia-vue-theme "[sites.default]
name = Deutsch
locale = de
url = /de
[sites.en]
name = English
locale = en
url = /en")
	out=$("$CMS_API_BIN" -c "$ini" check | tail -n 1)
	[ "$out" = "ok: $CORPORA/inertia-vue-theme: 2 sites, 2 collections, 62 entries" ] && pass ||
		fail "inertia-vue-theme: check with INI sites" "$out"
else
	echo "corpora: $CORPORA not found; their HTTP tests are skipped"
fi
