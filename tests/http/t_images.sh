# Images at the size the page needs, through each web server:
# /api/img/{container}/{path} with a preset alone, or any Glide parameters
# signed with [images] sign_key; what is refused (no signature, a wrong
# one, a bad parameter, a size beyond the bounds, a decompression bomb,
# something that is no image); asset answers listing their preset URLs;
# and the fast path's file of an image named with its type's suffix.

IMG_SITE=$T/img-site
rm -rf "$IMG_SITE"
cp -r "$FIXTURES/site" "$IMG_SITE"
/usr/bin/python3 "$HERE/mkpng.py" 640 480 "$IMG_SITE/public/assets/photo.png"
/usr/bin/python3 "$HERE/mkpng.py" 100000 100000 "$IMG_SITE/public/assets/bomb.png" --bomb
printf 'not a picture' >"$IMG_SITE/public/assets/broken.png"
SITE=$IMG_SITE
IMG_PUBLIC=$T/img-public
IMG_NOT_FOUND='{"message":"Not found."}'

# img_sign PATH QUERY: QUERY with Glide's signature of it for the key "k3y"
# (md5 of key:path?query, the query's parameters sorted by name).
img_sign() {
	local sorted
	sorted=$(printf '%s' "$2" | tr '&' '\n' | sort | paste -sd '&')
	printf '%s&s=%s' "$2" "$(printf 'k3y:%s?%s' "${1#/}" "$sorted" | md5sum | cut -c1-32)"
}
# img_size: the type and size of the last answer's image ("png 300x300").
img_size() { /usr/bin/python3 "$HERE/mkpng.py" --size "$T/body"; }
# expect_image NAME PATH TYPE SIZE: a 200 of that Content-Type and size.
expect_image() {
	request GET "$2"
	local got
	got=$(img_size)
	if [ "$STATUS" = 200 ] && [ "$got" = "$4" ]; then pass; else
		fail "$1: GET $2" "expected: 200 $4" "got:      $STATUS $got $(head -c 200 "$T/body")"
	fi
	expect_header "$1: type" "Content-Type: $3"
}

ini=$(site_ini images <<INI
[api]
enabled = true
openapi = true
base_url = http://images.example
[cache]
public_dir = $IMG_PUBLIC
[resources]
assets = true
[images]
presets = thumb:w=300,h=300,fit=crop small:w=100,fm=webp
sign_key = k3y
max_input_pixels = 10000000
max_output_pixels = 1000000
INI
)
start_server "$ini"

# --- presets ----------------------------------------------------------------
expect_image "a preset" '/api/img/assets/photo.png?p=thumb' image/png "png 300x300"
img_file=$IMG_PUBLIC/current/api/img/assets/photo.png@p=thumb.png
cp "$T/body" "$T/img-first"
for _ in $(seq 1 50); do cmp -s "$img_file" "$T/img-first" && break; sleep 0.1; done
cmp -s "$img_file" "$T/img-first" && pass || fail "the image published as $img_file"
[ -e "$IMG_PUBLIC/current/api/img/assets/photo.png@p=thumb.json" ] &&
	fail "the image published as .json" || pass
expect_image "a repeat, from the cache" '/api/img/assets/photo.png?p=thumb' image/png "png 300x300"
cmp -s "$T/body" "$T/img-first" && pass || fail "the repeat's bytes differ"
expect_image "a preset in another format" '/api/img/assets/photo.png?p=small' image/webp "webp 100x75"
expect "an unknown preset" GET '/api/img/assets/photo.png?p=huge' 400 '{"message":"Unknown image preset: huge."}'

# --- any size, signed ---------------------------------------------------------
q=$(img_sign /api/img/assets/photo.png 'w=400&h=300&fit=crop&fm=jpg&q=80')
expect_image "signed: crop to 400x300 as JPEG" "/api/img/assets/photo.png?$q" image/jpeg "jpeg 400x300"
q=$(img_sign /api/img/assets/photo.png 'w=200')
expect_image "signed: a width alone keeps the ratio" "/api/img/assets/photo.png?$q" image/png "png 200x150"
q=$(img_sign /api/img/assets/photo.png 'w=200&h=200&fit=fill&fm=webp')
expect_image "signed: fill pads to the box" "/api/img/assets/photo.png?$q" image/webp "webp 200x200"
q=$(img_sign /api/img/assets/photo.png 'w=300&dpr=2&fit=max')
expect_image "signed: max never enlarges" "/api/img/assets/photo.png?$q" image/png "png 600x450"
q=$(img_sign /api/img/assets/photo.png 'p=thumb&w=120&fm=gif')
expect_image "signed: a preset, then overrides" "/api/img/assets/photo.png?$q" image/gif "gif 120x300"

# --- what is refused -----------------------------------------------------------
IMG_UNSIGNED='{"message":"Image parameters need a signature (s) unless they name a preset (p) alone."}'
expect "parameters without a signature" GET '/api/img/assets/photo.png?w=400' 403 "$IMG_UNSIGNED"
expect "a preset with more beside it" GET '/api/img/assets/photo.png?p=thumb&w=1' 403 "$IMG_UNSIGNED"
expect "nothing asked for" GET '/api/img/assets/photo.png' 403 "$IMG_UNSIGNED"
q=$(img_sign /api/img/assets/photo.png 'w=400')
expect "a signature for other parameters" GET "/api/img/assets/photo.png?${q/w=400/w=401}" 403 \
	'{"message":"Signature is not valid."}'
expect "a signature for another image" GET "/api/img/assets/img/dot.gif?$q" 403 \
	'{"message":"Signature is not valid."}'
q=$(img_sign /api/img/assets/photo.png 'w=0400')
expect "a number spelt two ways" GET "/api/img/assets/photo.png?$q" 400 \
	'{"message":"The image parameter w is invalid: 0400."}'
q=$(img_sign /api/img/assets/photo.png 'blur=5')
expect "a Glide parameter not applied" GET "/api/img/assets/photo.png?$q" 400 \
	'{"message":"The image parameter blur is not supported."}'
q=$(img_sign /api/img/assets/photo.png 'w=2000&h=2000')
expect "a size beyond max_output_pixels" GET "/api/img/assets/photo.png?$q" 400 \
	'{"message":"The image asked for is too large: 2000 x 2000 pixels, more than [images] max_output_pixels (1000000) or 16383 on a side."}'
expect "a decompression bomb" GET '/api/img/assets/bomb.png?p=thumb' 422 \
	'{"message":"The image is too large to resize: 100000 x 100000 pixels, more than [images] max_input_pixels (10000000)."}'
request GET '/api/img/assets/photo.png?p=small'
[ "$STATUS" = 200 ] && pass || fail "a worker that refused a bomb still answers: $STATUS"
expect "a file that is no image" GET '/api/img/assets/broken.png?p=thumb' 422 \
	'{"message":"The image cannot be read."}'
expect "not a raster image" GET '/api/img/assets/readme.txt?p=thumb' 404 "$IMG_NOT_FOUND"
expect "no such file" GET '/api/img/assets/nope.png?p=thumb' 404 "$IMG_NOT_FOUND"
expect "no such container" GET '/api/img/other/photo.png?p=thumb' 404 "$IMG_NOT_FOUND"
expect "out of the container" GET '/api/img/assets/%2E%2E/photo.png?p=thumb' 404 "$IMG_NOT_FOUND"

# --- the asset lists its presets' URLs --------------------------------------------
expect "an image's preset URLs" GET '/api/assets/assets/photo.png?fields=presets' 200 \
	'{"data":{"presets":{"thumb":"http:\/\/images.example\/api\/img\/assets\/photo.png?p=thumb","small":"http:\/\/images.example\/api\/img\/assets\/photo.png?p=small"}}}'
expect "no presets for what is no image" GET '/api/assets/assets/readme.txt?fields=presets' 200 \
	'{"data":{"presets":null}}'
stop_server

# --- no presets and no key: the route answers nothing -----------------------------
ini=$(site_ini images-off <<INI
[api]
enabled = true
[resources]
assets = true
INI
)
start_server "$ini"
expect "images off" GET '/api/img/assets/photo.png?p=thumb' 404 "$IMG_NOT_FOUND"
expect "images off: no presets listed" GET '/api/assets/assets/photo.png?fields=presets' 200 \
	'{"data":{"presets":null}}'
stop_server

# --- presets only: a signed URL is refused ------------------------------------------
ini=$(site_ini images-presets <<INI
[api]
enabled = true
[resources]
assets = true
[images]
presets = thumb:w=30
INI
)
start_server "$ini"
q=$(img_sign /api/img/assets/photo.png 'w=400')
expect "no sign key: signatures refused" GET "/api/img/assets/photo.png?$q" 403 \
	'{"message":"Signed image URLs are not accepted here: only presets."}'
expect "no sign key: parameters refused" GET '/api/img/assets/photo.png?w=4' 403 \
	'{"message":"Only a preset (p) alone may be asked for."}'
expect_image "no sign key: a preset" '/api/img/assets/photo.png?p=thumb' image/png "png 30x23"
stop_server
SITE=$FIXTURES/site
