# The icon fieldtype through the web server: the SVG of the icon when
# [icons] names the folder of the field's set (a path relative to the INI
# file, as every path of it), the name where cms-api has no file to give
# (a set without a folder, a name without a file, a name that would leave
# the folder), and a change to an icon file seen without a restart, in a
# folder of the site (the Statamic kits' resources/svg) or outside it.

ISITE="$T/icons-site"
ifile() { mkdir -p "$(dirname "$ISITE/$1")"; cat >"$ISITE/$1"; }
mkdir -p "$ISITE/resources/svg/heroicons/outline" "$T/lucide"
printf 'title: Pages\n' | ifile "content/collections/pages.yaml"
printf -- '---\nid: home\ntitle: Home\nglyph: star\nmark: star\nplain: star\ngone: nope\nsneaky: ../secret\nnone: null\n---\n' |
	ifile "content/collections/pages/home.md"
ifile "resources/blueprints/collections/pages/page.yaml" <<'YAML'
fields:
  - {handle: title, field: {type: text}}
  - {handle: glyph, field: {type: icon, set: heroicons}}
  - {handle: mark, field: {type: icon, set: lucide}}
  - {handle: plain, field: {type: icon, set: feather}}
  - {handle: gone, field: {type: icon, set: heroicons}}
  - {handle: sneaky, field: {type: icon, set: heroicons}}
  - {handle: none, field: {type: icon, set: heroicons}}
YAML
printf 'title: Header\n' | ifile "content/navigation/header.yaml"
printf 'tree:\n  -\n    id: n1\n    title: Features\n    data:\n      icon: star\n' |
	ifile "content/trees/navigation/header.yaml"
printf 'fields:\n  - {handle: icon, field: {type: icon, set: heroicons}}\n' |
	ifile "resources/blueprints/navigation/header.yaml"
printf '<svg>star</svg>\n' >"$ISITE/resources/svg/heroicons/outline/star.svg"
printf '<svg>lucide star</svg>' >"$T/lucide/star.svg"
printf '<svg>secret</svg>' >"$ISITE/resources/svg/heroicons/secret.svg"

ini=$(SITE="$ISITE" CACHE="$T/icons-cache" site_ini icons <<INI
[api]
enabled = true
[resources]
collections = true
navs = true
[icons]
heroicons = icons-site/resources/svg/heroicons/outline
lucide = $T/lucide
INI
)
start_server "$ini" /api
expect "icons: the SVG, or the name where there is no file" GET \
	'/api/collections/pages/entries/home?fields=glyph,mark,plain,gone,sneaky,none' 200 \
	'{"data":{"glyph":"<svg>star<\/svg>\n","mark":"<svg>lucide star<\/svg>","plain":"star","gone":"nope","sneaky":"..\/secret","none":null}}'
expect "icons: a navigation page's icon" GET '/api/navs/header/tree?fields=title,icon' 200 \
	'{"data":[{"page":{"title":"Features","icon":"<svg>star<\/svg>\n"},"depth":1,"children":[]}]}'
# The answers are cached, and icons are read into the index: a changed
# icon makes a new generation, in the site's folder or outside it. (The
# patterns are globs: '*' stands for the JSON's '\/' and '['.)
printf '<svg>new star</svg>' >"$ISITE/resources/svg/heroicons/outline/star.svg"
until_answer "icons: a changed icon in the site's folder" '/api/navs/header/tree?fields=icon' \
	'{"data":*{"page":{"icon":"<svg>new star<*svg>"},"depth":1,"children":*]}'
printf '<svg>new lucide star</svg>' >"$T/lucide/star.svg"
until_answer "icons: a changed icon in a folder outside the site" \
	'/api/collections/pages/entries/home?fields=mark' '{"data":{"mark":"<svg>new lucide star<*svg>"}}'
stop_server

# cms-api check warns of a folder it cannot list (node_modules not
# installed yet: the kits' SVGs come with npm's postinstall).
sed 's#^lucide = .*#lucide = no-lucide#' "$ini" >"$T/icons-check.ini"
expect_cmd "icons: check warns of a missing icon folder" 0 \
	"$T/icons-check.ini: warning: [icons] lucide: $T/no-lucide: No such file or directory; its icon fields answer names
ok: $ISITE: 1 site, 1 collection, 1 entry" "$CMS_API_BIN" -c "$T/icons-check.ini" check
