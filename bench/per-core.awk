# per-core.awk: bench/per-core's measurements as Markdown tables, with the
# targets of issues 14 and 20. Every rate is taken in several rounds; a
# ratio is computed within its round (against the static file measured
# before and after the answers of that round, or json-server measured
# beside them) and reported as the median of the rounds, with the lowest
# and highest in brackets. A target is met when the median meets it.
# Input lines:
#   rate <round> <server> <kind> <scenario> <req/s> <server us/answer> <cms-api us/answer>
#        (kind: static-a static-b fastpath static-fp cached redis gzip 304 uncached json-server)
#   rss <server> <fastpath|cached> <server KiB> <worker KiB>
#   sys <server> <fastpath|cached> <scenario> <server calls/answer> <worker calls/answer>
#   size <what> <bytes>

function sort_values(list, n, a,    i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n
}
# median LIST: the median of a space-separated list ("" when empty).
function median(list,    a, n) {
	n = sort_values(list, 0, a)
	if (n == 0) return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function lowest(list,    a, n) { n = sort_values(list, 0, a); return n ? a[1] : "" }
function highest(list,    a, n) { n = sort_values(list, 0, a); return n ? a[n] : "" }
function add(key, v) { vals[key] = (key in vals) ? vals[key] " " v : v }

# ratios(server, kind, scenario, ref): the list of the rounds' ratios of kind
# to ref ("static" is the mean of static-a and static-b of the round).
function ratios(sv, kind, s, ref,    r, list, num, den) {
	list = ""
	for (r = 1; r <= maxround; r++) {
		num = rps[r, sv, kind, s]
		den = ref == "static" ? reference(r, sv, s) : rps[r, sv, ref, s]
		if (num != "" && den > 0) list = list (list == "" ? "" : " ") sprintf("%.4f", num / den)
	}
	return list
}
function reference(r, sv, s,    a, b) {
	a = rps[r, sv, "static-a", s]; b = rps[r, sv, "static-b", s]
	if (a == "" || b == "") return a == "" ? b : a
	return (a + b) / 2
}
function spread(list) {
	if (list == "") return "-"
	return sprintf("%.2f (%.2f-%.2f)", median(list), lowest(list), highest(list))
}
function rate_median(sv, kind, s,    r, list) {
	list = ""
	for (r = 1; r <= maxround; r++)
		if (rps[r, sv, kind, s] != "") list = list (list == "" ? "" : " ") rps[r, sv, kind, s]
	return list == "" ? "-" : sprintf("%.0f", median(list))
}
function static_median(sv, s,    r, list, v) {
	list = ""
	for (r = 1; r <= maxround; r++) {
		v = reference(r, sv, s)
		if (v != "") list = list (list == "" ? "" : " ") v
	}
	return list == "" ? "-" : sprintf("%.0f", median(list))
}
function cpu(sv, kind, s,    k) {
	k = sv SUBSEP kind SUBSEP s
	if (!((k, "server") in vals)) return "-"
	return sprintf("%.1f + %.1f", median(vals[k, "server"]), median(vals[k, "worker"]))
}
# verdict(ratios, target, what): "<what> <median> (rounds <lowest> to
# <highest>; target <target>): met" or "**not met**".
function verdict(list, target, what,    m, x) {
	if (list == "") return what " not measured"
	m = median(list)
	x = target >= 100 ? "x" : ""
	return sprintf("%s %.2f%s (rounds %.2f to %.2f; target %s%s): %s", what, m, x, lowest(list), highest(list),
		target, x, m >= target ? "met" : "**not met**")
}
function mib(kib) { return kib == "" ? "-" : sprintf("%.1f", kib / 1024) }

$1 == "rate" {
	r = $2; sv = $3; kind = $4; s = $5
	if (r > maxround) maxround = r
	if (!(sv in seen)) { seen[sv] = 1; servers[++nservers] = sv }
	rps[r, sv, kind, s] = $6
	ck = kind == "static-b" ? "static-a" : kind
	add(sv SUBSEP ck SUBSEP s SUBSEP "server", $7)
	add(sv SUBSEP ck SUBSEP s SUBSEP "worker", $8)
	next
}
$1 == "rss" { rss_server[$2, $3] = $4; rss_worker[$2, $3] = $5; next }
$1 == "sys" { sys_server[$2, $3, $4] = $5; sys_worker[$2, $3, $4] = $6; next }
$1 == "size" { sizes[++nsizes] = $2; bytes[$2] = $3; next }

END {
	print "Hits on one core: the static file's rate (req/s, the median of the rounds), and each"
	print "kind of answer as a share of it: the median of the " maxround " rounds' ratios (lowest-highest)."
	print "Targets: the fast path 0.9, a FastCGI hit 0.5."
	print ""
	print "| server | scenario | static req/s | fast path | static, fast-path config | cached (file) | cached (Redis) | gzip | 304 |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nservers; i++) {
		sv = servers[i]
		for (j = 1; j <= 2; j++) {
			s = j == 1 ? "list" : "entry"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", sv, s, static_median(sv, s),
				spread(ratios(sv, "fastpath", s, "static")), spread(ratios(sv, "static-fp", s, "static")),
				spread(ratios(sv, "cached", s, "static")), spread(ratios(sv, "redis", s, "static")),
				spread(ratios(sv, "gzip", s, "static")), spread(ratios(sv, "304", s, "static"))
		}
	}
	print ""
	print "Misses: the answer made from the index against json-server on the same entries, both on"
	print "one core, json-server measured beside cms-api in each round (target: 100 times json-server):"
	print ""
	print "| server | scenario | cms-api uncached req/s | json-server req/s | ratio |"
	print "|---|---|---:|---:|---:|"
	for (i = 1; i <= nservers; i++) {
		sv = servers[i]
		for (j = 1; j <= 2; j++) {
			s = j == 1 ? "list" : "contains"
			printf "| %s | %s | %s | %s | %s |\n", sv, s, rate_median(sv, "uncached", s),
				rate_median(sv, "json-server", s), spread(ratios(sv, "uncached", s, "json-server"))
		}
	}
	print ""
	print "Where the core's time goes: CPU time per answer, in microseconds, of the web server's"
	print "processes + cms-api's (its workers and watcher), the median of the rounds (from"
	print "/proc/*/schedstat, so what else ran on the core does not count):"
	print ""
	print "| server | scenario | static | fast path | static, fast-path config | cached (file) | cached (Redis) | uncached |"
	print "|---|---|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nservers; i++) {
		sv = servers[i]
		for (j = 1; j <= 3; j++) {
			s = j == 1 ? "list" : j == 2 ? "entry" : "contains"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", sv, s, cpu(sv, "static-a", s),
				cpu(sv, "fastpath", s), cpu(sv, "static-fp", s), cpu(sv, "cached", s),
				cpu(sv, "redis", s), cpu(sv, "uncached", s)
		}
	}
	if ((servers[1], "fastpath") in rss_server) {
		print ""
		print "Memory (resident, MiB: the web server's processes together, and the largest cms-api"
		print "process) and system calls per answer (strace -c over a second of one client; the web"
		print "server's + cms-api's), for the fast path and for a hit of the file driver:"
		print ""
		print "| server | fast path: server RSS | fast path: calls, list / entry | hit: server RSS | hit: worker RSS | hit: calls, list / entry |"
		print "|---|---:|---:|---:|---:|---:|"
		for (i = 1; i <= nservers; i++) {
			sv = servers[i]
			printf "| %s | %s | %s / %s | %s | %s | %s / %s |\n", sv, mib(rss_server[sv, "fastpath"]),
				calls(sv, "fastpath", "list"), calls(sv, "fastpath", "entry"),
				mib(rss_server[sv, "cached"]), mib(rss_worker[sv, "cached"]),
				calls(sv, "cached", "list"), calls(sv, "cached", "entry")
		}
	}
	if (nsizes) {
		print ""
		print "Bytes on the wire (body; for 304, the headers alone):"
		print ""
		print "| what | bytes |"
		print "|---|---:|"
		for (i = 1; i <= nsizes; i++) printf "| %s | %s |\n", sizes[i], bytes[sizes[i]]
	}
	print ""
	print "Targets (issues 14 and 20), the median of the rounds:"
	print ""
	for (i = 1; i <= nservers; i++) {
		sv = servers[i]
		for (j = 1; j <= 2; j++) {
			s = j == 1 ? "list" : "entry"
			printf "- %s, %s: %s\n", sv, s,
				verdict(ratios(sv, "fastpath", s, "static"), 0.9, "fast path / static file")
		}
		printf "- %s, list: %s\n", sv,
			verdict(ratios(sv, "cached", "list", "static"), 0.5, "FastCGI hit / static file, a stretch:")
		for (j = 1; j <= 2; j++) {
			s = j == 1 ? "list" : "contains"
			printf "- %s, %s: %s\n", sv, s,
				verdict(ratios(sv, "uncached", s, "json-server"), 100, "uncached / json-server")
		}
	}
}
function calls(sv, cfg, s) {
	if (!((sv, cfg, s) in sys_server)) return "-"
	return sprintf("%s + %s", sys_server[sv, cfg, s], sys_worker[sv, cfg, s])
}
