# The enabling gate, walked over every endpoint: a disabled resource type,
# a disabled handle or a handle simply not listed answers exactly 404
# {"message":"Not found."} and shows nothing; an enabled one answers 200
# with exactly one JSON document (never a 404 followed by the data).
# Configurations, one lighttpd each: all types on; all off; each type off
# (the others on); each type on with its handles in the table switched off;
# each type enabled only through another handle's section. After each, the
# worker log must not mention a "programming error" (a second answer).

SITE="$FIXTURES/site"
GATE_NOT_FOUND='{"message":"Not found."}'

# Every endpoint the router serves, one a line: the path after the route
# (with real handles and ids of the fixture, so that it answers data when
# allowed), the resource type that gates it (- for none: always on), the
# handle it names (- for a list that names none), and any further types that
# must be on for it (comma-separated, - for none).
# A new endpoint gets a line here, and a new type one line in GATE_OTHER
# below.
GATE_ENDPOINTS='
ping                                  -            -      -
sites                                 sites        -      -
collections                           collections  -      -
collections/pages                     collections  pages  -
collections/pages/entries             collections  pages  -
collections/pages/entries/about       collections  pages  -
collections/pages/tree                collections  pages  -
navs                                  navs         -      -
navs/main                             navs         main   -
navs/main/tree                        navs         main   -
taxonomies                            taxonomies   -      -
taxonomies/tags                       taxonomies   tags   -
taxonomies/tags/terms                 taxonomies   tags   -
taxonomies/tags/terms/news            taxonomies   tags   -
taxonomies/tags/terms/news/entries    taxonomies   tags   collections
globals                               globals      -      -
globals/settings                      globals      settings -
forms                                 forms        -      -
forms/contact                         forms        contact -
users                                 users        -      -
users/user-ada                        users        -      -
asset-containers                      assets       -      -
asset-containers/assets               assets       assets -
assets/assets                         assets       assets -
assets/assets/img/dot.gif             assets       assets -
'

# For each type whose endpoints name a handle: another handle, enabled alone
# in the "other" configuration (it need not exist in the fixture).
GATE_OTHER='
collections  blog
navs         footer
taxonomies   categories
globals      footer
forms        newsletter
assets       other
'

# Every [resources] type the configuration knows (src/config.c).
GATE_TYPES='collections navs taxonomies globals forms assets users sites'

# Exact bodies where a configuration pins one down: configuration, path, body.
GATE_EXACT='
handle_off:navs  navs  {"data":[]}
other:navs       navs  {"data":[]}
handle_off:taxonomies  taxonomies  {"data":[]}
other:taxonomies       taxonomies  {"data":[]}
handle_off:globals  globals  {"data":[]}
other:globals       globals  {"data":[]}
handle_off:forms  forms  {"data":[]}
other:forms       forms  {"data":[]}
handle_off:assets  asset-containers  {"data":[]}
other:assets       asset-containers  {"data":[]}
'

# gate_one_json: stdin is exactly one JSON object or array, nothing before or
# after it (two documents back to back fail). A small checker in POSIX awk
# (python3 or jq may be missing): strings with escapes, balanced brackets,
# and barewords that are numbers, true, false or null.
gate_one_json() {
	awk '
	function bareword(w) {
		return w ~ /^(true|false|null)$/ || w ~ /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/
	}
	BEGIN { depth = 0; docs = 0; instr = 0; esc = 0; bad = 0 }
	{
		s = (NR > 1 ? "\n" : "") $0
		n = length(s)
		for (i = 1; i <= n && !bad; i++) {
			c = substr(s, i, 1)
			if (instr) {
				if (esc) esc = 0
				else if (c == "\\") esc = 1
				else if (c == "\"") instr = 0
				else if (c == "\n") bad = 1
				continue
			}
			if (c == " " || c == "\t" || c == "\r" || c == "\n") continue
			if (depth == 0) {
				if ((c != "{" && c != "[") || ++docs > 1) { bad = 1; break }
			}
			if (c == "{" || c == "[") stack[++depth] = c
			else if (c == "}" || c == "]") {
				if (stack[depth] != (c == "}" ? "{" : "[")) { bad = 1; break }
				depth--
			} else if (c == "\"") instr = 1
			else if (c == ":" || c == ",") continue
			else {
				w = c
				while (i < n && substr(s, i + 1, 1) ~ /[-+.0-9a-zA-Z]/) w = w substr(s, ++i, 1)
				if (!bareword(w)) bad = 1
			}
		}
	}
	END { exit (bad || instr || depth != 0 || docs != 1) ? 1 : 0 }'
}

# The checker itself, so that a broken one cannot let everything pass.
for gate_doc in '{"data":[]}' '{"a":"x}{\"y","b":[1,-2.5e3,true,null,{}]}' '[{"page":{"t":"{}"},"d":1}]'; do
	printf '%s' "$gate_doc" | gate_one_json && pass || fail "gate_one_json rejects a document" "$gate_doc"
done
for gate_doc in '' '{"message":"Not found."}{"data":{"handle":"main"}}' '{"data":[]} {"data":[]}' \
	'{"data":[}' '{"data":[]' '{"a":"b}' '{"a":nope}' '"x"' '{}x'; do
	printf '%s' "$gate_doc" | gate_one_json && fail "gate_one_json accepts a broken body" "$gate_doc" || pass
done

# gate_cut TEXT: TEXT, cut short for a failure message.
gate_cut() {
	if [ ${#1} -gt 200 ]; then printf '%s...' "${1:0:200}"; else printf '%s' "$1"; fi
}

# gate_ini NAME KIND TYPE: the configuration. all: every type on; alloff:
# every type off; off: TYPE off, the others on; handle_off: every type on,
# each handle of TYPE the table names switched off by its own section;
# other: the others on, TYPE only through the section of its other handle.
gate_ini() {
	local name=$1 kind=$2 type=$3 t h
	{
		printf '[api]\nenabled = true\n[resources]\n'
		for t in $GATE_TYPES; do
			case "$kind:$t" in
			alloff:* | "off:$type") echo "$t = false" ;;
			"other:$type") ;;
			*) echo "$t = true" ;;
			esac
		done
		case "$kind" in
		handle_off)
			for h in $(gate_handles "$type"); do printf '[resources.%s.%s]\nenabled = false\n' "$type" "$h"; done
			;;
		other) printf '[resources.%s.%s]\n' "$type" "$(echo "$GATE_OTHER" | awk -v t="$type" '$1 == t {print $2}')" ;;
		esac
	} | site_ini "$name"
}

# gate_handles TYPE: the handles the table names for TYPE.
gate_handles() {
	echo "$GATE_ENDPOINTS" | awk -v t="$1" '$2 == t && $3 != "-" {print $3}' | sort -u
}

# gate_fetch PATH...: asks for every path (after /api) with one curl, over
# one kept-alive connection: a curl per request would leave hundreds of
# client ports in TIME_WAIT, and lib.sh's free_port may then hand one of
# them to the next lighttpd, which cannot bind it. Sets GATE_ANSWERS[i] to
# "STATUS CONTENT-TYPE"; the bodies are in $T/gate-body.i.
gate_fetch() {
	local args=() i=0 p
	for p in "$@"; do
		: >"$T/gate-body.$i"
		args+=(-o "$T/gate-body.$i" "http://127.0.0.1:$PORT/api/$p")
		i=$((i + 1))
	done
	mapfile -t GATE_ANSWERS < <(curl -s -g -w '%{http_code} %{content_type}\n' "${args[@]}")
}

# gate_walk KIND TYPE: one lighttpd for that configuration (see gate_ini),
# every endpoint of the table asked once.
gate_walk() {
	local kind=$1 type=$2 cfg ini from i gated exact h what
	local paths=() etypes=() handles=() needs=() path etype handle need
	cfg=$kind${type:+:$type}
	while read -r path etype handle need; do
		[ -n "$path" ] || continue
		paths+=("$path") etypes+=("$etype") handles+=("$handle") needs+=("$need")
	done <<<"$GATE_ENDPOINTS"
	ini=$(gate_ini "gate-$kind-$type" "$kind" "$type")
	from=$(($({ wc -l <"$T/worker.log"; } 2>/dev/null || echo 0) + 1))
	start_server "$ini" /api
	gate_fetch "${paths[@]}"
	stop_server
	for i in "${!paths[@]}"; do
		path=${paths[$i]} etype=${etypes[$i]} handle=${handles[$i]} need=${needs[$i]}
		what="gate[$cfg]: GET /api/$path"
		STATUS=${GATE_ANSWERS[$i]:-000}
		STATUS=${STATUS%% *}
		BODY=$(cat "$T/gate-body.$i")
		# Every answer, 200 or 404, is JSON.
		case "${GATE_ANSWERS[$i]:-}" in
		"$STATUS application/json") pass ;;
		*) fail "$what: not application/json" "got: ${GATE_ANSWERS[$i]:-no answer}" ;;
		esac
		if [ "$etype" = - ]; then
			[ "$STATUS $BODY" = '200 {"ping":"pong"}' ] && pass ||
				fail "$what" 'expected: 200 {"ping":"pong"}' "got:      $STATUS $(gate_cut "$BODY")"
			continue
		fi
		# Is the answer to be a 404 in this configuration?
		gated=no
		case "$kind" in
		alloff) gated=yes ;;
		off)
			if [ "$etype" = "$type" ]; then
				gated=yes
			else
				case ",$need," in *",$type,"*) gated=yes ;; esac
			fi
			;;
		handle_off | other) [ "$etype" = "$type" ] && [ "$handle" != - ] && gated=yes ;;
		esac
		if [ "$gated" = yes ]; then
			[ "$STATUS $BODY" = "404 $GATE_NOT_FOUND" ] && pass ||
				fail "$what" "expected: 404 $GATE_NOT_FOUND" "got:      $STATUS $(gate_cut "$BODY")"
			continue
		fi
		if [ "$STATUS" != 200 ]; then
			fail "$what" "expected: 200 and its data" "got:      $STATUS $(gate_cut "$BODY")"
			continue
		fi
		if printf '%s' "$BODY" | gate_one_json && [ "${BODY#\{\"data\":}" != "$BODY" ]; then
			pass
		else
			fail "$what: not one {\"data\":...} document" "got: $STATUS $(gate_cut "$BODY")"
		fi
		# A list of the switched-off type shows none of its switched-off handles.
		if [ "$handle" = - ] && [ "$etype" = "$type" ]; then
			for h in $(gate_handles "$type"); do
				case "$BODY" in
				*"\"handle\":\"$h\""*) fail "$what: lists the disabled $h" "got: $(gate_cut "$BODY")" ;;
				*) pass ;;
				esac
			done
		fi
		exact=$(echo "$GATE_EXACT" | awk -v c="$cfg" -v p="$path" '$1 == c && $2 == p {print $3}')
		if [ -n "$exact" ]; then
			[ "$BODY" = "$exact" ] && pass || fail "$what" "expected: 200 $exact" "got:      $STATUS $(gate_cut "$BODY")"
		fi
	done
	if tail -n "+$from" "$T/worker.log" 2>/dev/null | grep -q 'programming error'; then
		fail "gate[$cfg]: the worker log has a programming error" \
			"$(tail -n "+$from" "$T/worker.log" | grep 'programming error' | head -5)"
	else
		pass
	fi
}

gate_walk all ''
gate_walk alloff ''
for gate_type in $(echo "$GATE_ENDPOINTS" | awk 'NF && $2 != "-" {print $2} $4 != "-" && NF {n = split($4, a, ","); for (i = 1; i <= n; i++) print a[i]}' | sort -u); do
	gate_walk off "$gate_type"
done
for gate_type in $(echo "$GATE_ENDPOINTS" | awk 'NF && $3 != "-" {print $2}' | sort -u); do
	gate_walk handle_off "$gate_type"
	if echo "$GATE_OTHER" | awk -v t="$gate_type" '$1 == t {found = 1} END {exit !found}'; then
		gate_walk other "$gate_type"
	else
		fail "t_gate.sh: GATE_OTHER has no other handle for $gate_type"
	fi
done
