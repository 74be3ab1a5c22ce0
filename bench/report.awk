# report.awk: turns bench/run's measurements into Markdown tables and
# checks them against issue 5's targets (lighttpd's rows). Input lines:
#   <entries> <scenario> <server> <req/s loaded> <p50 ms alone> <p99 ms alone>
#   <p99 ms loaded> <memory MiB>
# where server is cached, uncached, static (lighttpd), json-server, or
# nginx-cached, apache-static, ... (the same behind nginx and Apache).

function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "n/a" }
function verdict(ok) { return ok ? "met" : "**not met**" }

{
	n = $1; s = $2; srv = $3
	if (!(n in seen_n)) { seen_n[n] = 1; sizes[++nsizes] = n }
	if (!((n, s) in seen_s) && n == sizes[1]) scen[++nscen] = s
	seen_s[n, s] = 1
	rps[n, s, srv] = $4; p50[n, s, srv] = $5; p99[n, s, srv] = $6; lp99[n, s, srv] = $7
	mem[n, s, srv] = $8
	if (srv ~ /^(nginx|apache)-/) {
		split(srv, parts, "-")
		if (!(parts[1] in front)) { front[parts[1]] = 1; nfronts++ }
	}
}

# The label of a web server's KIND (cached, uncached, static) rows.
function label(f, kind) { return f == "lighttpd" ? kind : f "-" kind }

# Per size, the cached and uncached rates behind each web server against
# the same server's static file.
function fronts_table(n,    j, k, f, s, names, nf) {
	nf = split("lighttpd nginx apache", names, " ")
	printf("\n#### %d entries behind each web server\n\n", n)
	print "| scenario | server | uncached req/s | cached req/s | static req/s | cached / static | uncached / static | cached p50 (alone) | uncached p50 (alone) |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nscen; j++)
		for (k = 1; k <= nf; k++) {
			f = names[k]; s = scen[j]
			if (f != "lighttpd" && !(f in front)) continue
			printf("| %s | %s | %d | %d | %d | %s | %s | %.3f | %.3f |\n", s, f,
			       rps[n, s, label(f, "uncached")], rps[n, s, label(f, "cached")],
			       rps[n, s, label(f, "static")],
			       ratio(rps[n, s, label(f, "cached")], rps[n, s, label(f, "static")]),
			       ratio(rps[n, s, label(f, "uncached")], rps[n, s, label(f, "static")]),
			       p50[n, s, label(f, "cached")], p50[n, s, label(f, "uncached")])
		}
}

END {
	split("cached uncached static json-server", servers, " ")
	for (i = 1; i <= nsizes; i++) {
		n = sizes[i]
		printf("\n### %d entries\n\n", n)
		print "| scenario | server | req/s (loaded) | p50 (alone) | p99 (alone) | p99 (loaded) | memory (MiB) |"
		print "|---|---|---:|---:|---:|---:|---:|"
		for (j = 1; j <= nscen; j++)
			for (k = 1; k <= 4; k++) {
				s = scen[j]; srv = servers[k]
				printf("| %s | %s | %d | %.3f | %.3f | %.3f | %.1f |\n", s, srv, rps[n, s, srv],
				       p50[n, s, srv], p99[n, s, srv], lp99[n, s, srv], mem[n, s, srv])
			}
		print ""
		print "| scenario | cached / static | uncached / static | uncached / json-server | cached / json-server |"
		print "|---|---:|---:|---:|---:|"
		for (j = 1; j <= nscen; j++) {
			s = scen[j]
			printf("| %s | %s | %s | %s | %s |\n", s,
			       ratio(rps[n, s, "cached"], rps[n, s, "static"]),
			       ratio(rps[n, s, "uncached"], rps[n, s, "static"]),
			       ratio(rps[n, s, "uncached"], rps[n, s, "json-server"]),
			       ratio(rps[n, s, "cached"], rps[n, s, "json-server"]))
		}
		if (nfronts > 0) fronts_table(n)
	}

	# The targets, over every size and scenario of the run.
	min_cs = 1e9; min_uj = 1e9; max_c99 = 0; max_u99 = 0
	for (i = 1; i <= nsizes; i++)
		for (j = 1; j <= nscen; j++) {
			n = sizes[i]; s = scen[j]
			if (rps[n, s, "static"] > 0 && rps[n, s, "cached"] / rps[n, s, "static"] < min_cs) {
				min_cs = rps[n, s, "cached"] / rps[n, s, "static"]; at_cs = s " at " n
			}
			if ((s == "list" || s == "contains") && rps[n, s, "json-server"] > 0 &&
			    rps[n, s, "uncached"] / rps[n, s, "json-server"] < min_uj) {
				min_uj = rps[n, s, "uncached"] / rps[n, s, "json-server"]; at_uj = s " at " n
			}
			if (p99[n, s, "cached"] > max_c99) { max_c99 = p99[n, s, "cached"]; at_c99 = s " at " n }
			if (p99[n, s, "uncached"] > max_u99) { max_u99 = p99[n, s, "uncached"]; at_u99 = s " at " n }
		}
	print "\n### Against the targets of issue 5\n"
	printf("- cached answers at least half the static file's rate: lowest ratio %.2f (%s): %s\n",
	       min_cs, at_cs, verdict(min_cs >= 0.5))
	printf("- uncached list queries at least 100 times json-server's rate: lowest %.0f times (%s): %s\n",
	       min_uj, at_uj, verdict(min_uj >= 100))
	printf("- p99 under 2 ms cached (one client): highest %.3f ms (%s): %s\n", max_c99, at_c99, verdict(max_c99 < 2))
	printf("- p99 under 10 ms uncached (one client): highest %.3f ms (%s): %s\n", max_u99, at_u99, verdict(max_u99 < 10))
	for (i = 2; i <= nsizes; i++) {
		a = sizes[i - 1]; b = sizes[i]; grow = b / a; worst_t = 0; worst_m = 0
		for (j = 1; j <= nscen; j++) {
			s = scen[j]
			if (p50[a, s, "uncached"] > 0 && p50[b, s, "uncached"] / p50[a, s, "uncached"] > worst_t) {
				worst_t = p50[b, s, "uncached"] / p50[a, s, "uncached"]; at_t = s
			}
			if (mem[a, s, "uncached"] > 0 && mem[b, s, "uncached"] / mem[a, s, "uncached"] > worst_m) {
				worst_m = mem[b, s, "uncached"] / mem[a, s, "uncached"]; at_m = s
			}
		}
		printf("- from %d to %d entries (%.0f times): uncached p50 latency grows at most %.1f times (%s), memory %.1f times (%s): %s\n",
		       a, b, grow, worst_t, at_t, worst_m, at_m, verdict(worst_t <= grow && worst_m <= grow))
	}
}
