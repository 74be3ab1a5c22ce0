# Asset containers and assets through the web server: the container index and
# show, the asset list (path order, pages, fields, sort, filters) and one
# asset by its path, every key of an item, a private container, paths
# that leave the container in any spelling, links out of it, hidden files,
# and a changed .meta file.

AS_SITE="$T/assets-site"
AS_DISK="$AS_SITE/public/assets"
AS_VAULT="$T/assets-vault"
AS_OUTSIDE="$T/assets-outside"
cp -r "$FIXTURES/site" "$AS_SITE"
mkdir -p "$AS_DISK/docs/.meta" "$AS_DISK/media/.meta" "$AS_VAULT" "$AS_OUTSIDE" \
	"$AS_SITE/resources/blueprints/assets"
# A pdf whose data holds a title, a focus, a key of its own and a url the
# asset's own replaces; a 1.5 MB zip (sparse); a png with no .meta, whose
# size the index reads from its header; an mp3 with a duration.
printf '%%PDF-1.4\n' >"$AS_DISK/docs/guide.pdf"
printf "data:\n  title: 'The Guide'\n  focus: 25-75-2\n  custom: x\n  url: /not/this\nsize: 1\nwidth: 10\n" \
	>"$AS_DISK/docs/.meta/guide.pdf.yaml"
truncate -s 1572864 "$AS_DISK/docs/manual.zip"
printf '\211PNG\r\n\032\n\0\0\0\rIHDR\0\0\0\3\0\0\0\2\10\2\0\0\0' >"$AS_DISK/img/a b.png"
printf 'ID3abc' >"$AS_DISK/media/song.mp3"
printf 'data:\n  alt: Song\nduration: 3725.4\nmime_type: audio/mpeg\n' >"$AS_DISK/media/.meta/song.mp3.yaml"
# Never assets: a hidden file, and links to a file and a folder outside
# the container (made here: a tarball would turn a link into a copy).
printf 'hidden\n' >"$AS_DISK/.secret"
printf 'outside every container\n' >"$AS_OUTSIDE/canary.txt"
ln -s "$AS_OUTSIDE/canary.txt" "$AS_DISK/escape.txt"
ln -s "$AS_OUTSIDE" "$AS_DISK/escape-dir"
# A private container (its disk has no url) with a blueprint of its own.
printf 'title: Vault\ndisk: vault\n' >"$AS_SITE/content/assets/vault.yaml"
printf 'title: Vault File\nfields:\n  -\n    handle: caption\n    field:\n      type: text\n' \
	>"$AS_SITE/resources/blueprints/assets/vault.yaml"
printf 'plan\n' >"$AS_VAULT/plan.txt"
# Fixed times: last_modified is then known.
find "$AS_DISK" "$AS_VAULT" -exec touch -h -d @1700000000 {} +
as_ini=$(SITE="$AS_SITE" CACHE="$T/assets-cache" site_ini assets <<INI
[api]
enabled = true
[resources]
assets = true
[resources.assets.assets]
allowed_filters = extension, is_image, alt
[disks.vault]
root = $AS_VAULT
INI
)
start_server "$as_ini" /api
A="http:\/\/127.0.0.1:$PORT\/api"
S="http:\/\/127.0.0.1:$PORT"
NOT_FOUND='{"message":"Not found."}'

# --- containers ---

expect "asset containers: index" GET /api/asset-containers 200 \
	"{\"data\":[{\"handle\":\"assets\",\"title\":\"Site Assets\",\"api_url\":\"$A\/asset-containers\/assets\"},{\"handle\":\"vault\",\"title\":\"Vault\",\"api_url\":\"$A\/asset-containers\/vault\"}]}"
expect "asset containers: show" GET /api/asset-containers/assets 200 \
	"{\"data\":{\"handle\":\"assets\",\"title\":\"Site Assets\",\"api_url\":\"$A\/asset-containers\/assets\"}}"
expect "asset containers: unknown" GET /api/asset-containers/nope 404 "$NOT_FOUND"
expect "assets: unknown container" GET /api/assets/nope 404 "$NOT_FOUND"
expect "asset: unknown container" GET /api/assets/nope/img/dot.gif 404 "$NOT_FOUND"

# --- one asset, every key ---

AS_CONTAINER="\"container\":{\"id\":\"assets\",\"title\":\"Site Assets\",\"handle\":\"assets\",\"disk\":\"assets\",\"blueprint\":{\"title\":\"Assets\",\"handle\":\"assets\"},\"search_index\":null,\"api_url\":\"$A\/asset-containers\/assets\"}"
AS_TIMES='"last_modified":"2023-11-14T22:13:20.000000Z","last_modified_timestamp":1700000000,"last_modified_instance":"2023-11-14T22:13:20.000000Z"'
# The fixture's dot.gif.yaml holds a size (999) and a time (1) of its own,
# which Statamic believes over the file's.
AS_META_TIMES='"last_modified":"1970-01-01T00:00:01.000000Z","last_modified_timestamp":1,"last_modified_instance":"1970-01-01T00:00:01.000000Z"'
AS_NO_DURATION='"duration":null,"duration_seconds":null,"duration_minutes":null,"duration_sec":null,"duration_min":null,"playtime":null'
AS_DOT="{\"alt\":\"A dot\",\"id\":\"assets::img\/dot.gif\",\"title\":\"dot.gif\",\"path\":\"img\/dot.gif\",\"filename\":\"dot\",\"basename\":\"dot.gif\",\"extension\":\"gif\",\"is_asset\":true,\"is_audio\":false,\"is_previewable\":false,\"is_image\":true,\"is_svg\":false,\"is_video\":false,\"blueprint\":{\"title\":\"Assets\",\"handle\":\"assets\"},$AS_CONTAINER,\"folder\":\"img\",\"url\":\"\/assets\/img\/dot.gif\",\"permalink\":\"$S\/assets\/img\/dot.gif\",\"api_url\":\"$A\/assets\/assets\/img\/dot.gif\",\"size\":\"999 B\",\"size_bytes\":999,\"size_kilobytes\":0.98,\"size_megabytes\":0.0,\"size_gigabytes\":0.0,\"size_b\":999,\"size_kb\":0.98,\"size_mb\":0.0,\"size_gb\":0.0,$AS_META_TIMES,\"focus\":\"50-50-1\",\"has_focus\":false,\"focus_css\":\"50% 50%\",\"height\":1,\"width\":1,\"orientation\":\"square\",\"ratio\":1,\"mime_type\":\"image\/gif\",$AS_NO_DURATION}"
expect "asset: by a nested path, every key in order" GET /api/assets/assets/img/dot.gif 200 "{\"data\":$AS_DOT}"
# The data's title and focus win; its url does not (the asset's own
# stands where the data put it); a pdf has no width, whatever .meta says,
# and so is "square" (null === null, as in Statamic); its size is the
# .meta's; alt comes last when nothing gave it.
AS_GUIDE="{\"title\":\"The Guide\",\"focus\":\"25-75-2\",\"custom\":\"x\",\"url\":\"\/assets\/docs\/guide.pdf\",\"id\":\"assets::docs\/guide.pdf\",\"path\":\"docs\/guide.pdf\",\"filename\":\"guide\",\"basename\":\"guide.pdf\",\"extension\":\"pdf\",\"is_asset\":true,\"is_audio\":false,\"is_previewable\":true,\"is_image\":false,\"is_svg\":false,\"is_video\":false,\"blueprint\":{\"title\":\"Assets\",\"handle\":\"assets\"},$AS_CONTAINER,\"folder\":\"docs\",\"permalink\":\"$S\/assets\/docs\/guide.pdf\",\"api_url\":\"$A\/assets\/assets\/docs\/guide.pdf\",\"size\":\"1 B\",\"size_bytes\":1,\"size_kilobytes\":0.0,\"size_megabytes\":0.0,\"size_gigabytes\":0.0,\"size_b\":1,\"size_kb\":0.0,\"size_mb\":0.0,\"size_gb\":0.0,$AS_TIMES,\"has_focus\":true,\"focus_css\":\"25% 75%\",\"height\":null,\"width\":null,\"orientation\":\"square\",\"ratio\":null,\"mime_type\":\"application\/pdf\",$AS_NO_DURATION,\"alt\":null}"
AS_ZIP="{\"id\":\"assets::docs\/manual.zip\",\"title\":\"manual.zip\",\"path\":\"docs\/manual.zip\",\"filename\":\"manual\",\"basename\":\"manual.zip\",\"extension\":\"zip\",\"is_asset\":true,\"is_audio\":false,\"is_previewable\":true,\"is_image\":false,\"is_svg\":false,\"is_video\":false,\"blueprint\":{\"title\":\"Assets\",\"handle\":\"assets\"},$AS_CONTAINER,\"folder\":\"docs\",\"url\":\"\/assets\/docs\/manual.zip\",\"permalink\":\"$S\/assets\/docs\/manual.zip\",\"api_url\":\"$A\/assets\/assets\/docs\/manual.zip\",\"size\":\"1.50 MB\",\"size_bytes\":1572864,\"size_kilobytes\":1536.0,\"size_megabytes\":1.5,\"size_gigabytes\":0.0,\"size_b\":1572864,\"size_kb\":1536.0,\"size_mb\":1.5,\"size_gb\":0.0,$AS_TIMES,\"focus\":\"50-50-1\",\"has_focus\":false,\"focus_css\":\"50% 50%\",\"height\":null,\"width\":null,\"orientation\":\"square\",\"ratio\":null,\"mime_type\":\"application\/zip\",$AS_NO_DURATION,\"alt\":null}"
expect "asset: data keys first, title and focus from them" GET /api/assets/assets/docs/guide.pdf 200 "{\"data\":$AS_GUIDE}"
expect "asset: a duration" GET '/api/assets/assets/media/song.mp3?fields=alt,is_audio,duration,duration_seconds,duration_minutes,duration_sec,duration_min,playtime,mime_type' 200 \
	'{"data":{"alt":"Song","is_audio":true,"duration":3725.0,"duration_seconds":3725.0,"duration_minutes":"62:5","duration_sec":3725.0,"duration_min":"62:5","playtime":"01:02:05","mime_type":"audio\/mpeg"}}'
expect "asset: a name with a space; its size from its header" GET '/api/assets/assets/img/a%20b.png?fields=id,api_url,width,height,orientation,ratio,mime_type,alt' 200 \
	"{\"data\":{\"id\":\"assets::img\/a b.png\",\"api_url\":\"$A\/assets\/assets\/img\/a%20b.png\",\"width\":3,\"height\":2,\"orientation\":\"landscape\",\"ratio\":1.5,\"mime_type\":\"image\/png\",\"alt\":null}}"
expect "asset: fields in their order, unknown ones null" GET '/api/assets/assets/img/dot.gif?fields=url,nope,id,alt' 200 \
	'{"data":{"url":"\/assets\/img\/dot.gif","nope":null,"id":"assets::img\/dot.gif","alt":"A dot"}}'
expect "asset: filters are not for one asset" GET '/api/assets/assets/img/dot.gif?fields=id&filter[size]=x' 200 \
	'{"data":{"id":"assets::img\/dot.gif"}}'
expect "asset: a private container's has no url" GET '/api/assets/vault/plan.txt?fields=id,url,permalink,api_url,blueprint' 200 \
	"{\"data\":{\"id\":\"vault::plan.txt\",\"url\":null,\"permalink\":null,\"api_url\":\"$A\/assets\/vault\/plan.txt\",\"blueprint\":{\"title\":\"Vault File\",\"handle\":\"vault\"}}}"
request GET /api/assets/vault/plan.txt
case "$BODY" in
*'"playtime":null,"caption":null,"alt":null}}') pass ;;
*) fail "asset: the blueprint's fields, then alt, close the item" "$BODY" ;;
esac
expect "asset: unknown path" GET /api/assets/assets/img/nope.gif 404 "$NOT_FOUND"
expect "asset: a folder is not an asset" GET /api/assets/assets/img 404 "$NOT_FOUND"

# --- the list ---

AS_L="$A\/assets\/assets"
# as_page QUERY PAGE LAST TOTAL FROM TO LIMIT: links and meta of a page;
# QUERY is what the links carry before page (limit always among it).
as_page() {
	local q=$1 page=$2 last=$3 total=$4 from=$5 to=$6 limit=$7 i
	local u="$AS_L?$q&page=" prev=null next=null prev_page=null next_page=null
	[ "$page" -gt 1 ] && prev="\"$u$((page - 1))\"" prev_page=$((page - 1))
	[ "$page" -lt "$last" ] && next="\"$u$((page + 1))\"" next_page=$((page + 1))
	local links="{\"url\":$prev,\"label\":\"&laquo; Previous\",\"page\":$prev_page,\"active\":false}"
	for i in $(seq 1 "$last"); do
		links="$links,{\"url\":\"$u$i\",\"label\":\"$i\",\"page\":$i,\"active\":$([ "$i" = "$page" ] && echo true || echo false)}"
	done
	links="$links,{\"url\":$next,\"label\":\"Next &raquo;\",\"page\":$next_page,\"active\":false}"
	printf '"links":{"first":"%s","last":"%s","prev":%s,"next":%s},"meta":{"current_page":%s,"from":%s,"last_page":%s,"links":[%s],"path":"%s","per_page":%s,"to":%s,"total":%s}' \
		"${u}1" "$u$last" "$prev" "$next" "$page" "$from" "$last" "$links" "$AS_L" "$limit" "$to" "$total"
}
expect "assets: the first page, every key of each" GET '/api/assets/assets?limit=2' 200 \
	"{\"data\":[$AS_GUIDE,$AS_ZIP],$(as_page 'limit=2' 1 3 6 1 2 2)}"
expect "assets: in path order, no hidden file, nothing through a link out" GET '/api/assets/assets?fields=path' 200 \
	"{\"data\":[{\"path\":\"docs\/guide.pdf\"},{\"path\":\"docs\/manual.zip\"},{\"path\":\"img\/a b.png\"},{\"path\":\"img\/dot.gif\"},{\"path\":\"media\/song.mp3\"},{\"path\":\"readme.txt\"}],$(as_page 'fields=path&limit=25' 1 1 6 1 6 25)}"
expect "assets: a middle page" GET '/api/assets/assets?limit=2&page=2&fields=id' 200 \
	"{\"data\":[{\"id\":\"assets::img\/a b.png\"},{\"id\":\"assets::img\/dot.gif\"}],$(as_page 'limit=2&fields=id' 2 3 6 3 4 2)}"
expect "assets: past the last page" GET '/api/assets/assets?limit=4&page=3&fields=id' 200 \
	"{\"data\":[],$(as_page 'limit=4&fields=id' 3 2 6 null null 4)}"
expect "assets: sort" GET '/api/assets/assets?sort=-size_bytes,path&fields=path,size' 200 \
	"{\"data\":[{\"path\":\"docs\/manual.zip\",\"size\":\"1.50 MB\"},{\"path\":\"img\/dot.gif\",\"size\":\"999 B\"},{\"path\":\"img\/a b.png\",\"size\":\"29 B\"},{\"path\":\"media\/song.mp3\",\"size\":\"6 B\"},{\"path\":\"readme.txt\",\"size\":\"6 B\"},{\"path\":\"docs\/guide.pdf\",\"size\":\"1 B\"}],$(as_page 'sort=-size_bytes%2Cpath&fields=path%2Csize&limit=25' 1 1 6 1 6 25)}"
expect "assets: an allowed filter" GET '/api/assets/assets?filter[is_image]=true&fields=path' 200 \
	"{\"data\":[{\"path\":\"img\/a b.png\"},{\"path\":\"img\/dot.gif\"}],$(as_page 'filter%5Bis_image%5D=true&fields=path&limit=25' 1 1 2 1 2 25)}"
expect "assets: a filter on alt, null for most" GET '/api/assets/assets?filter[alt:contains]=o&fields=path,alt' 200 \
	"{\"data\":[{\"path\":\"img\/dot.gif\",\"alt\":\"A dot\"},{\"path\":\"media\/song.mp3\",\"alt\":\"Song\"}],$(as_page 'filter%5Balt%3Acontains%5D=o&fields=path%2Calt&limit=25' 1 1 2 1 2 25)}"
expect "assets: a forbidden filter" GET '/api/assets/assets?filter[size]=x' 422 '{"message":"Forbidden filter: size"}'
expect "assets: no filter is allowed in a container without a list" GET '/api/assets/vault?filter[extension]=txt' 422 \
	'{"message":"Forbidden filter: extension"}'
expect "assets: bad limit" GET '/api/assets/assets?limit=0' 400 \
	'{"message":"The limit parameter must be a whole number from 1 to 1000, not \"0\"."}'

# --- paths that leave the container, in any spelling: 404, nothing opened ---

for as_path in '../x' '%2e%2e/x' '..%2fx' 'x/..%5c..%5cy' '%2fetc%2fpasswd' '..%2f..%2fcontent%2fassets%2fassets.yaml' \
	'img/..%2f..%2f..%2fcontent%2fassets%2fassets.yaml' 'escape.txt' 'escape-dir/canary.txt' \
	'.secret' 'img/.meta/dot.gif.yaml' 'img//dot.gif' './img/dot.gif' 'img/./dot.gif' '%2e/img/dot.gif'; do
	expect "asset: hostile path $as_path" GET "/api/assets/assets/$as_path" 404 "$NOT_FOUND" --path-as-is
done
# lighttpd refuses an encoded NUL itself (400); cms-api, asked directly,
# refuses it too (400), before any route is looked at.
request GET /api/assets/assets/a%00.png
case "$STATUS $BODY" in
"200 "* | *'"data"'*) fail "asset: an encoded NUL through lighttpd" "$STATUS $BODY" ;;
*) pass ;;
esac
expect_cmd "asset: an encoded NUL" 0 '{"message":"The request holds a NUL byte (%00)."}' sh -c "'$CMS_API_BIN' -c '$as_ini' get '/api/assets/assets/a%00.png' | tail -n 1"
request GET '/api/assets/assets?limit=100'
case "$BODY" in
*escape* | *canary* | *secret*) fail "assets: the list names something outside or hidden" "$BODY" ;;
*) pass ;;
esac

# --- HEAD ---

out=$(raw_request 'HEAD /api/assets/assets/img/dot.gif HTTP/1.0\r\nHost: x\r\n\r\n' | tr -d '\r')
case "$out" in
"HTTP/1."[01]" 200 OK"*"Content-Type: application/json"*) case "$out" in *'"data"'*) fail "asset: HEAD has a body" "$out" ;; *) pass ;; esac ;;
*) fail "asset: HEAD answers" "$out" ;;
esac

# --- a changed .meta file (AssetSaved) shows within a few seconds ---

sed -i "s/alt: 'A dot'/alt: 'A round dot'/" "$AS_DISK/img/.meta/dot.gif.yaml"
until_answer "asset: an edited .meta file shows" '/api/assets/assets/img/dot.gif?fields=alt' \
	'{"data":{"alt":"A round dot"}}'
until_answer "assets: the list shows it too" '/api/assets/assets?filter[alt]=A%20round%20dot&fields=id' \
	'{"data":?{"id":"assets::img\\/dot.gif"}?,"links"*'
stop_server

# [api] excluded_keys leave items, and fields= asks for them in vain (null).
as_excl=$(SITE="$AS_SITE" CACHE="$T/assets-cache-excl" site_ini assets-excl <<INI
[api]
enabled = true
excluded_keys = container, permalink, alt
[resources]
assets = true
[disks.vault]
root = $AS_VAULT
INI
)
as_body=$("$CMS_API_BIN" -c "$as_excl" get /api/assets/vault/plan.txt | tail -n 1)
case "$as_body" in
*'"container"'* | *'"permalink"'* | *'"alt"'*) fail "asset: excluded keys are left out" "$as_body" ;;
'{"data":{"id":"vault::plan.txt","title":"plan.txt",'*'"folder":"\/","url":null,"api_url":'*'"playtime":null,"caption":null}}') pass ;;
*) fail "asset: excluded keys, the rest in order" "$as_body" ;;
esac
expect_cmd "asset: excluded keys asked for by name" 0 '{"data":{"alt":null,"container":null,"id":"vault::plan.txt"}}' \
	sh -c "'$CMS_API_BIN' -c '$as_excl' get '/api/assets/vault/plan.txt?fields=alt,container,id' | tail -n 1"

# --- what a .meta holds is believed; PHP's arithmetic on it; Laravel's URLs ---

# An svg whose .meta (as Statamic writes it) quotes its width and height
# and holds a size and a time the file does not have; a container without
# a blueprint of its own (its title humanized from the handle) holding a
# name with '@' and '=', which Laravel's URLs leave bare.
AS2_SITE="$T/assets-site-2"
cp -r "$FIXTURES/site" "$AS2_SITE"
mkdir -p "$AS2_SITE/public/assets/logos/.meta" "$AS2_SITE/public/social"
printf '<svg/>' >"$AS2_SITE/public/assets/logos/logo.svg"
printf "data: {  }\nsize: 8392\nlast_modified: 1729145856\nwidth: '237'\nheight: '46'\nmime_type: image/svg+xml\nduration: null\n" \
	>"$AS2_SITE/public/assets/logos/.meta/logo.svg.yaml"
printf 'disk: social\n' >"$AS2_SITE/content/assets/social_images.yaml"
printf 'x' >"$AS2_SITE/public/social/og@2x=b.png"
as2_ini=$(SITE="$AS2_SITE" CACHE="$T/assets-cache-2" site_ini assets-2 <<INI
[api]
enabled = true
[resources]
assets = true
[disks.social]
root = $AS2_SITE/public/social
url = /social
INI
)
start_server "$as2_ini" /api
A="http:\/\/127.0.0.1:$PORT\/api"
expect "asset: size, time and quoted dimensions from .meta; ratio and orientation as PHP computes them" \
	GET '/api/assets/assets/logos/logo.svg?fields=size,size_bytes,last_modified_timestamp,width,height,orientation,ratio' 200 \
	'{"data":{"size":"8.20 KB","size_bytes":8392,"last_modified_timestamp":1729145856,"width":"237","height":"46","orientation":"landscape","ratio":5.1521739130434785}}'
expect "asset: '@' and '=' bare in api_url; a default blueprint's title humanized" \
	GET '/api/assets/social_images/og@2x=b.png?fields=id,api_url,blueprint' 200 \
	"{\"data\":{\"id\":\"social_images::og@2x=b.png\",\"api_url\":\"$A\/assets\/social_images\/og@2x=b.png\",\"blueprint\":{\"title\":\"Social images\",\"handle\":\"social_images\"}}}"
stop_server
