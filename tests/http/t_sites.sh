# A Statamic 3.0 multi-site site through the web server: its sites from
# config/statamic/sites.php (a dotted handle among them), its navigation
# trees per site in content/navigation/{site}/; `cms-api check` on a
# sites.php it cannot read; and an entry's url where its redirect sends.

ini=$(SITE="$FIXTURES/v3-multisite" site_ini sites <<INI
[api]
enabled = true
[resources]
collections = true
navs = true
sites = true
INI
)
start_server "$ini" /api
S="http:\/\/127.0.0.1:$PORT"
expect "v3 sites: from sites.php" GET /api/sites 200 \
	"{\"data\":[{\"handle\":\"default\",\"name\":\"Statamic\",\"locale\":\"en_US\",\"short_locale\":\"en\",\"url\":\"$S\/\"},{\"handle\":\"fr\",\"name\":\"Fran\u00e7ais\",\"locale\":\"fr_FR\",\"short_locale\":\"fr\",\"url\":\"$S\/fr\"},{\"handle\":\"v2.3\",\"name\":\"Docs 2.3\",\"locale\":\"en_US\",\"short_locale\":\"en\",\"url\":\"$S\/v2.3\"}]}"
expect "v3 sites: a nav tree of a dotted site" GET '/api/navs/main/tree?site=v2.3&fields=title,url,permalink' 200 \
	"{\"data\":[{\"page\":{\"title\":\"Installing 2.3\",\"url\":\"\/v2.3\/install\",\"permalink\":\"$S\/v2.3\/install\"},\"depth\":1,\"children\":[]}]}"
expect "v3 sites: the default site's nav tree" GET '/api/navs/main/tree?fields=title,url' 200 \
	'{"data":[{"page":{"title":"About","url":"\/about"},"depth":1,"children":[]},{"page":{"title":"Docs","url":"\/docs"},"depth":1,"children":[]}]}'
expect "v3 sites: an entry by slug in a dotted site" GET '/api/collections/pages/entries/install?site=v2.3&fields=id,locale,url' 200 \
	'{"data":{"id":"old-install","locale":"v2.3","url":"\/v2.3\/install"}}'
stop_server

if once_for_all_servers; then
	PSITE="$T/sites-php"
	cp -r "$FIXTURES/v3-multisite" "$PSITE"
	printf "<?php\n\nreturn [\n    'sites' => [\n        'en' => ['url' => \$base . '/'],\n    ],\n];\n" \
		>"$PSITE/config/statamic/sites.php"
	pini=$(SITE="$PSITE" site_ini sites-php </dev/null)
	out=$("$CMS_API_BIN" -c "$pini" check 2>&1)
	rc=$?
	case "$rc:$out" in
	"1:$PSITE/config/statamic/sites.php:5: cannot read '\$': only literal arrays, strings, numbers, true, false, null, env() and config() are read; name the sites in the INI's [sites.*] sections instead"*"1 problem found") pass ;;
	*) fail "check: a sites.php it cannot read is an error with its line" "exit $rc: $out" ;;
	esac
fi

# An entry that redirects: its url and permalink are the target's, its
# permalink below the request's host.
RSITE="$T/redirect-site"
cp -r "$FIXTURES/site" "$RSITE"
printf -- "---\nid: go\ntitle: Go\nredirect: 'entry::team'\n---\n" >"$RSITE/content/collections/pages/en/go.md"
ini=$(SITE="$RSITE" CACHE="$T/redirect-cache" site_ini redirect <<INI
[api]
enabled = true
[resources]
collections = true
INI
)
start_server "$ini" /api
expect "redirect: url and permalink are the target's" GET '/api/collections/pages/entries/go?fields=uri,url,permalink' 200 \
	"{\"data\":{\"uri\":\"\/go\",\"url\":\"\/about\/team\",\"permalink\":\"http:\/\/127.0.0.1:$PORT\/about\/team\"}}"
stop_server
