# Logs (issue 19, 8): every file left out of the index is logged once, by
# name and reason, and a deleted entry is logged as deleted, through each
# server, the workers not root. The fixture has two sites, so an entry
# beside the site folders is in none; a binary .md does not parse; an
# entry with the id of another is the other's duplicate.

LO="$T/leftout"
LO_LOG="$LO/worker.log"
LO_BLOG="$LO/site/content/collections/blog"
mkdir -p "$LO"
cp -r "$FIXTURES/site" "$LO/site"
printf -- '---\ntitle: Stray\n---\n' >"$LO_BLOG/stray.md"
printf '\211PNG\r\n\032\n\0\0\0\rIHDR' >"$LO_BLOG/en/binary.md"
run_workers_unprivileged "$LO"
lo_ini=$(SITE="$LO/site" CACHE="$LO/cache" WORKER_LOG="$LO_LOG" site_ini leftout <<INI
[log]
level = info
[api]
enabled = true
[resources]
collections = true
INI
)
worker_owns "$lo_ini"

# lo_count TEXT: the lines of the worker log holding TEXT.
lo_count() { grep -cF -- "$1" "$LO_LOG" 2>/dev/null; }

# lo_logged NAME TEXT: within 5 s, TEXT is in the worker log. (At the
# start, the worker that starts the watcher brings the index up to date,
# and the watcher looks again: each process says it once.)
lo_logged() {
	for _ in $(seq 1 50); do
		[ "$(lo_count "$2")" -ge 1 ] && break
		sleep 0.1
	done
	[ "$(lo_count "$2")" -ge 1 ] && pass || fail "$1" "not logged: $2" "$(cat "$LO_LOG" 2>/dev/null)"
}

start_server "$lo_ini" /api
until_answer "leftout: served" /api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000003 \
	'*"title":"Launch"*'
lo_logged "leftout: an entry in no site folder" "$LO_BLOG/stray.md: not in a site folder; left out"
lo_logged "leftout: a binary .md" "$LO_BLOG/en/binary.md:1: invalid leading UTF-8 octet"
lo_logged "leftout: a duplicate id" \
	"$LO_BLOG/en/2024-03-01.copy.md: duplicate id 1f2e3d4c-0000-4000-8000-000000000001 (kept content/collections/blog/en/2024-01-10.hello-world.md)"
rm "$LO_BLOG/en/2024-02-01-1430.launch.md"
until_answer "leftout: a deleted entry is a 404" \
	/api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000003 '{"message":"Not found."}' 10
lo_logged "leftout: a deleted entry is logged as deleted" \
	"$LO_BLOG/en/2024-02-01-1430.launch.md: deleted (EntryDeleted): no longer served"
grep -F "2024-02-01-1430.launch.md" "$LO_LOG" | grep -qF "last good version" &&
	fail "leftout: a deleted entry is not said to be served" "$(grep -F launch "$LO_LOG")" || pass
# Said once: more changes bring no second line for what is still left out.
lo_said=$(lo_count "$LO_BLOG/stray.md: not in a site folder; left out")
sed -i 's/^title: .*/title: Blog again/' "$LO/site/content/collections/blog.yaml"
until_answer "leftout: another change" /api/collections/blog '*"title":"Blog again"*' 10
[ "$(lo_count "$LO_BLOG/stray.md: not in a site folder; left out")" = "$lo_said" ] && pass ||
	fail "leftout: said once, not at every change" "$(grep -F stray.md "$LO_LOG")"
stop_server
wait_workers_gone
run_workers_as_tester
