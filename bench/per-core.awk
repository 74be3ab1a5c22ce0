# per-core.awk: bench/per-core's measurements as Markdown tables, with the
# targets of issue 14. Input lines:
#   <server> <kind> <scenario> <req/s>    (kind: static fastpath cached redis gzip 304 uncached)
#   size <what> <bytes>
function ratio(a, b) { return b > 0 && a != "" ? sprintf("%.2f", a / b) : "n/a" }
function cell(server, kind, s,    r) {
	r = rps[server, kind, s]
	if (r == "") return "-"
	return r " (" ratio(r, rps[server, "static", s]) ")"
}
function verdict(ok) { return ok ? "met" : "**not met**" }

$1 == "size" { sizes[++nsizes] = $2; bytes[$2] = $3; next }
{
	if (!($1 in seen)) { seen[$1] = 1; if ($1 != "json-server") servers[++nservers] = $1 }
	rps[$1, $2, $3] = $4
}
END {
	print "Hits, in req/s on one core, and (in brackets) as a share of the same server sending"
	print "the same bytes from a file (targets: the fast path 0.9, a FastCGI hit 0.5):"
	print ""
	print "| server | scenario | static | fast path | cached (file) | cached (Redis) | gzip | 304 | static, fast-path config |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nservers; i++) {
		sv = servers[i]
		for (j = 1; j <= 2; j++) {
			s = j == 1 ? "list" : "entry"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", sv, s, rps[sv, "static", s],
				cell(sv, "fastpath", s), cell(sv, "cached", s), cell(sv, "redis", s),
				cell(sv, "gzip", s), cell(sv, "304", s), cell(sv, "static-fp", s)
		}
	}
	print ""
	print "Misses: the answer made from the index, against json-server on the same entries, both on"
	print "one core (target: 100 times json-server):"
	print ""
	print "| server | scenario | cms-api uncached | json-server | ratio |"
	print "|---|---|---:|---:|---:|"
	for (i = 1; i <= nservers; i++) {
		sv = servers[i]
		for (j = 1; j <= 2; j++) {
			s = j == 1 ? "list" : "contains"
			printf "| %s | %s | %s | %s | %s |\n", sv, s, rps[sv, "uncached", s],
				rps["json-server", "uncached", s], ratio(rps[sv, "uncached", s], rps["json-server", "uncached", s])
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
	print "Targets of issue 14 (per server, the list page):"
	print ""
	for (i = 1; i <= nservers; i++) {
		sv = servers[i]
		st = rps[sv, "static", "list"]
		if (rps[sv, "fastpath", "list"] != "")
			printf "- %s, fast path at %s of the static file (0.9): %s\n", sv, ratio(rps[sv, "fastpath", "list"], st), verdict(rps[sv, "fastpath", "list"] >= 0.9 * st)
		printf "- %s, FastCGI hit at %s of the static file (0.5): %s\n", sv, ratio(rps[sv, "cached", "list"], st), verdict(rps[sv, "cached", "list"] >= 0.5 * st)
		js = rps["json-server", "uncached", "list"]
		printf "- %s, uncached list at %sx json-server (100x): %s\n", sv, ratio(rps[sv, "uncached", "list"], js), verdict(rps[sv, "uncached", "list"] >= 100 * js)
	}
}
