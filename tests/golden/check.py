#!/usr/bin/env python3
"""The golden test: cms-api's answers against Statamic 6.1's recorded ones.

For each of the four corpora, the oracle's diff.py (../shared/oracle, in its
--golden mode) asks cms-api every request of golden/<site>/requests.tsv, on a
copy of the corpus with the recorded mtimes, and writes every difference to
OUT/<site>-v6/results.json. This script then sorts each difference:

  accepted  matches a rule of accepted.yaml: a deliberate difference of the
            contract, or a Statamic defect cms-api does not copy (each with
            its reason; cms-api(8) lists them, see --man-section);
  pending   matches a line of pending.txt: a cms-api defect not fixed yet;
  failing   anything else.

It fails on a failing difference, and on a pending line that matches nothing
any more (the defect is fixed: delete the line). It prints, per site, the
requests and how many are identical, accepted (every difference accepted),
pending (some pending, none failing) and failing.

usage: check.py --shared DIR --bin CMS_API --out DIR [--site NAME]... [-v]
       check.py --results DIR [--site NAME]... [-v]   (sort results already made)
       check.py --propose ...     (also print a pending.txt line per failing group)
       check.py --man-section     (the roff section cms-api(8) carries)
       check.py --check-man FILE  (fails if FILE's section is not that)
       check.py --write-man FILE  (puts that section into FILE)
Only python3 and python3-yaml (which diff.py needs too) are used.
"""
import argparse
import collections
import json
import math
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("golden: python3-yaml is missing (scripts/install-deps installs it): "
             "diff.py reads the sites' front matter with it")

HERE = os.path.dirname(os.path.abspath(__file__))
SITES = ["bedrock", "inertia-vue-theme", "brand0n-gg", "amplitude-docs"]
MAN_BEGIN = '.\\" BEGIN DIFFERENCES (generated: tests/golden/check.py --write-man; edit tests/golden/accepted.yaml)'
MAN_END = '.\\" END DIFFERENCES'


# ------------------------------------------------------------------ patterns
def glob_re(pattern):
    """A pattern where only * and [*] are special, matched against the
    whole string: [*] is one list position of a key path ([id=...], [3]),
    * any run of characters."""
    def part(p):
        return ".*".join(re.escape(x) for x in p.split("*"))
    return re.compile("^" + r"\[[^\]]*\]".join(part(p) for p in pattern.split("[*]")) + "$", re.S)


def number(text):
    """A number diff.py printed (JSON), or None."""
    try:
        v = json.loads(text)
    except ValueError:
        return None
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def number_format_cast(item):
    """Statamic's size_kilobytes is (float) number_format(kb, 2): with a
    thousands separator, "1,510.36" casts to 1. True when Statamic's value is
    what that cast makes of cms-api's."""
    s, c = number(item.statamic), number(item.cms)
    return s is not None and c is not None and c >= 1000 and s == math.floor(c / 1000)


def query_of(text):
    """The query parameters of a link as diff.py printed it: a quoted
    string, perhaps cut at its start (then "…" and part of a parameter)."""
    text = text.strip("'\"")
    if "?" in text:
        return text.rpartition("?")[2].split("&")
    return text.split("&") if text.startswith("…") else None


def query_params_kept(item):
    """A pagination link that differs from Statamic's only by the query
    parameters it keeps: Statamic's are all there, page is the same and last.
    Both strings are cut at the same place, before their first difference."""
    s, c = query_of(item.statamic), query_of(item.cms)
    if s is None or c is None or s[0].startswith("…") != c[0].startswith("…"):
        return False
    if s[0].startswith("…"):
        if s[0] != c[0]:
            return False
        s, c = s[1:], c[1:]
    return bool(s) and set(s) <= set(c) and s[-1].startswith("page=") and c[-1] == s[-1]


def label_is_key(item):
    """Statamic 6's null label of an option declared "key: null": the
    object holding it has Statamic's key, which cms-api answers as label."""
    holder = item.statamic_holder()
    return (isinstance(holder, dict) and holder.get("label") is None
            and isinstance(holder.get("key"), str) and item.cms == repr(holder["key"]))


def set_in_data(item):
    """A global variable a Statamic 3 to 5 single-site set file holds under
    data: (content/globals/<handle>.yaml), which Statamic 6 does not read."""
    m = re.match(r"^\.data\[handle=([^\]]+)\]\.([^.\[]+)", item.path)
    if m:
        handle, var = m.groups()
    else:
        h = re.match(r"^/api/globals/([^/?]+)", item.request)
        v = re.match(r"^\.data\.([^.\[]+)", item.path)
        if not (h and v):
            return False
        handle, var = h.group(1), v.group(1)
    data = item.golden.global_data(item.site, handle) if item.golden else None
    return isinstance(data, dict) and var in data


TESTS = {"number_format_cast": number_format_cast, "query_params_kept": query_params_kept,
         "label_is_key": label_is_key, "set_in_data": set_in_data}


# ------------------------------------------------------------------ the lists
class Matcher:
    """One narrow rule: every field it names must match (each field: any of
    its patterns). request, path and class are required."""
    FIELDS = ("site", "request", "path", "class", "statamic", "cms")

    def __init__(self, spec, where):
        unknown = set(spec) - set(self.FIELDS) - {"test"}
        if unknown:
            raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        for f in ("request", "path", "class"):
            if f not in spec:
                raise ValueError(f"{where}: a rule names its request, path and class (no {f})")
        self.pats = {}
        for f in self.FIELDS:
            if f in spec:
                vals = spec[f] if isinstance(spec[f], list) else [spec[f]]
                if f == "class" and any(v.strip("*") == "" for v in vals):
                    raise ValueError(f"{where}: a class of '*' would accept anything")
                self.pats[f] = [glob_re(str(v)) for v in vals]
        self.test = spec.get("test")
        if self.test is not None and self.test not in TESTS:
            raise ValueError(f"{where}: unknown test {self.test!r} (known: {', '.join(TESTS)})")

    def matches(self, item):
        for f, pats in self.pats.items():
            value = getattr(item, "klass" if f == "class" else f)
            if not any(p.match(value) for p in pats):
                return False
        return self.test is None or TESTS[self.test](item)


class Accepted:
    """An accepted difference (accepted.yaml): id, kind, title, reason, and
    the rules that recognise it."""

    def __init__(self, spec, n):
        where = f"accepted.yaml entry {n}"
        for f in ("id", "kind", "title", "reason"):
            if not spec.get(f):
                raise ValueError(f"{where}: no {f}")
        if spec["kind"] not in ("contract", "statamic"):
            raise ValueError(f"{where}: kind is contract or statamic, not {spec['kind']!r}")
        self.id, self.kind, self.title = spec["id"], spec["kind"], spec["title"]
        self.reason = " ".join(str(spec["reason"]).split())
        self.note = spec.get("note")
        self.rules = [Matcher(m, f"{where} ({self.id}) rule {i + 1}") for i, m in enumerate(spec.get("match") or [])]
        self.count = 0


def load_accepted(path):
    """accepted.yaml's entries, in order; ValueError names a malformed one."""
    with open(path, encoding="utf-8") as f:
        specs = yaml.safe_load(f)
    out = [Accepted(s, i + 1) for i, s in enumerate(specs)]
    ids = [a.id for a in out]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"accepted.yaml: id used twice: {', '.join(sorted(dup))}")
    return out


class Pending:
    """A line of pending.txt: DEFECT | SITE | REQUEST | PATH | CLASS."""

    def __init__(self, line, n):
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 5 or not all(parts):
            raise ValueError(f"pending.txt:{n}: want 'defect | site | request | path | class', got: {line}")
        self.line, self.n = line, n
        self.defect, site, request, path, klass = parts
        self.site = site
        if site != "*" and site not in SITES:
            raise ValueError(f"pending.txt:{n}: unknown site {site!r}")
        self.rule = Matcher({"site": site, "request": request, "path": path, "class": klass}, f"pending.txt:{n}")
        self.count = 0


def load_pending(path):
    """pending.txt's lines, and the problems of the file as a whole (not
    sorted, a line twice); ValueError names a malformed line."""
    lines, out = [], []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            out.append(Pending(line, n))
            lines.append(line)
    problems = []
    if lines != sorted(lines):
        first = next(i for i in range(1, len(lines)) if lines[i] < lines[i - 1])
        problems.append(f"pending.txt is not sorted (line {out[first].n}); sort it: "
                        "LC_ALL=C sort, comments first")
    dup = [l for l, k in collections.Counter(lines).items() if k > 1]
    problems += [f"pending.txt: a line twice: {l}" for l in dup]
    return out, problems


# ------------------------------------------------------------------ the differences
class Golden:
    """Statamic's recorded answers (oracle/golden/<site>), parsed when a
    test looks into one (results.json holds only the differing values), and
    the corpora they answer."""

    def __init__(self, shared):
        self.shared, self.index, self.parsed = shared, {}, {}

    def answer(self, site, request):
        """The parsed answer of request, or None."""
        d = os.path.join(self.shared or "", "oracle", "golden", site)
        if site not in self.index:
            self.index[site] = {}
            if self.shared and os.path.exists(os.path.join(d, "requests.tsv")):
                with open(os.path.join(d, "requests.tsv"), encoding="utf-8") as f:
                    for line in f:
                        parts = line.rstrip("\n").split("\t")
                        if len(parts) == 3:
                            self.index[site][parts[0]] = parts[2]
        name = self.index[site].get(request)
        if name and (site, name) not in self.parsed:
            with open(os.path.join(d, name), encoding="utf-8") as f:
                self.parsed[(site, name)] = json.load(f)
        return self.parsed.get((site, name))

    def global_data(self, site, handle):
        """The data: of corpora/<site>/content/globals/<handle>.yaml, or None."""
        path = os.path.join(self.shared or "", "corpora", site, "content", "globals", handle + ".yaml")
        try:
            with open(path, encoding="utf-8") as f:
                return (yaml.safe_load(f) or {}).get("data")
        except (OSError, yaml.YAMLError, AttributeError):
            return None


def ident(v):
    """diff.py's identity of a list item (its key paths say [id=...])."""
    if isinstance(v, dict):
        for k in ("id", "handle", "path", "slug"):
            if isinstance(v.get(k), (str, int)):
                return f"{k}={v[k]}"
        if isinstance(v.get("page"), dict) and "id" in v["page"]:
            return f"page.id={v['page']['id']}"
    return None


def follow(doc, path):
    """The value at a diff.py key path (".data[id=x].blocks[0].text") of doc,
    or None."""
    for key, pos in re.findall(r"\.([^.\[]+)|\[([^\]]*)\]", path):
        if key:
            doc = doc.get(key) if isinstance(doc, dict) else None
        elif isinstance(doc, list) and pos.isdigit() and "=" not in pos:
            doc = doc[int(pos)] if int(pos) < len(doc) else None
        elif isinstance(doc, list):
            doc = next((v for v in doc if ident(v) == pos), None)
        else:
            doc = None
    return doc


class Item:
    """One difference of one request, as diff.py recorded it."""

    def __init__(self, site, request, path, klass, statamic, cms, golden=None):
        self.site, self.request, self.path, self.klass = site, request, path, klass
        self.statamic, self.cms, self.golden = statamic, cms, golden

    def statamic_holder(self):
        """What holds the differing key in Statamic's answer, or None."""
        doc = self.golden.answer(self.site, self.request) if self.golden else None
        return follow(doc, re.sub(r"\.[^.\[]+$", "", self.path)) if doc is not None else None


def items_of(site, rec, golden=None):
    """The differences of one request of results.json (none when identical)."""
    r, sa, sb = rec["request"], rec["statamic_status"], rec["cms_status"]
    if rec["verdict"] == "statamic-5xx":
        return [Item(site, r, "", f"status {sa} (Statamic)", str(rec.get("statamic_error", "")), str(sb))]
    if rec["verdict"] == "status":
        return [Item(site, r, "", f"status {sa} (Statamic) vs {sb} (cms-api)", str(sa), str(sb))]
    return [Item(site, r, d["path"], d["class"], d["statamic"], d["cms"], golden) for d in rec["diffs"]]


def sort_item(item, accepted, pending):
    """('accepted', entry) / ('pending', line) / ('failing', None). A request
    missing from the recording (status 0) is never accepted."""
    if not item.klass.startswith("status 0 "):
        for a in accepted:
            if any(m.matches(item) for m in a.rules):
                return "accepted", a
        for p in pending:
            if p.rule.matches(item):
                return "pending", p
    return "failing", None


def generic_request(r):
    """A request with its handles, ids and slugs made *: a pending line's
    request, not overlapping another such line's."""
    p, _, q = r.partition("?")
    for rx, to in ((r"^/api/collections/[^/]+/entries/.+", "/api/collections/*/entries/*"),
                   (r"^/api/collections/[^/]+/", "/api/collections/*/"),
                   (r"^/api/taxonomies/[^/]+/terms/[^/]+/entries$", "/api/taxonomies/*/terms/*/entries"),
                   (r"^/api/taxonomies/[^/]+/terms/[^/]+$", "/api/taxonomies/*/terms/*"),
                   (r"^/api/taxonomies/[^/]+/", "/api/taxonomies/*/"),
                   (r"^/api/assets/[^/]+/.+", "/api/assets/*/*"),
                   (r"^/api/assets/[^/]+$", "/api/assets/*"),
                   (r"^/api/navs/[^/]+/", "/api/navs/*/"),
                   (r"^/api/globals/[^/]+", "/api/globals/*")):
        if re.match(rx, p):
            p = re.sub(rx, to, p)
            break
    if p.endswith("/tree"):
        p += "*"
    # a pattern ending in * covers the request with a query too
    return p + ("?*" if q and not p.endswith("*") else "")


def generic_path(path):
    """A key path with every list position made [*]: a pending line's path."""
    return re.sub(r"\[[^\]]*\]", "[*]", path)


# ------------------------------------------------------------------ running diff.py
def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now, for diff.py's pool."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recorded_args(oracle, site):
    """diff.py's arguments for SITE, as RECORDED.txt says the recording was
    made (paths in them are relative to the oracle folder)."""
    with open(os.path.join(oracle, "golden", site, "RECORDED.txt"), encoding="utf-8") as f:
        line = next((l for l in f if l.startswith("request list:")), None)
    if line is None:
        raise RuntimeError(f"{oracle}/golden/{site}/RECORDED.txt has no 'request list:' line")
    words = shlex.split(line.split(":", 1)[1])[1:]  # after "diff.py"
    out, skip = [], False
    for i, w in enumerate(words):
        if skip:
            skip = False
        elif w == "--site":
            skip = True
        elif i and words[i - 1] == "--sites-yaml":
            out.append(os.path.join(oracle, w))
        else:
            out.append(w)
    return out


def run_diff(shared, binary, out, site):
    """Runs diff.py --golden for SITE; its results.json lands in OUT/SITE-v6."""
    oracle = os.path.join(shared, "oracle")
    golden = os.path.join(oracle, "golden", site)
    with open(os.path.join(oracle, "golden", "VERSION.txt"), encoding="utf-8") as f:
        m = re.search(r"https?://[\w.:-]+", f.read())
    base = m.group(0) if m else "http://127.0.0.1:22481"
    dest = os.path.join(out, f"{site}-v6")
    shutil.rmtree(dest, ignore_errors=True)
    # diff.py's copies of the site and its INI go to temporary folders:
    # ours, removed after it. It is handed a writable copy of the corpus
    # (it writes into its own copy of what it is given, and the shared
    # corpora are read-only: a copy of them would be too).
    tmp = tempfile.mkdtemp(prefix=f"golden-{site}-", dir=out)
    env = dict(os.environ, TMPDIR=tmp)
    corpus = os.path.join(tmp, "corpus", site)
    shutil.copytree(os.path.join(shared, "corpora", site), corpus, symlinks=True)
    for d, dirs, files in os.walk(corpus):
        for f in [d] + [os.path.join(d, x) for x in files]:
            if not os.path.islink(f):
                os.chmod(f, os.stat(f).st_mode | 0o200)
    cmd = [sys.executable, os.path.join(oracle, "diff.py"), "--site", corpus,
           "--golden", golden, "--statamic", base, "--bin", binary, "--out", dest, "--quiet",
           "--fcgi-port", str(free_port())] + recorded_args(oracle, site)
    with open(os.path.join(out, f"{site}.log"), "w") as log:
        p = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        # What the workers said (their log, and their stderr: a sanitizer's
        # report lands there) outlives the temporary folder.
        for d in sorted(os.listdir(tmp)):
            for name in ("cms-api.log", "pool.err"):
                path = os.path.join(tmp, d, name)
                if d.startswith("diffini-") and os.path.exists(path):
                    with open(path, encoding="utf-8", errors="replace") as f:
                        log.write(f"\n== the workers' {name}\n{f.read()}")
    shutil.rmtree(tmp, ignore_errors=True)
    if p.returncode != 0 or not os.path.exists(os.path.join(dest, "results.json")):
        with open(os.path.join(out, f"{site}.log"), encoding="utf-8", errors="replace") as f:
            tail = f.read()[-2000:]
        raise RuntimeError(f"diff.py failed on {site} (exit {p.returncode}):\n{tail}")


# ------------------------------------------------------------------ the man page
def roff(text):
    """Plain text as a roff paragraph: backslashes, and a leading . or '."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text)


def man_section(accepted):
    """The DIFFERENCES FROM STATAMIC section, from accepted.yaml."""
    out = [MAN_BEGIN, ".SH DIFFERENCES FROM STATAMIC",
           roff("On the same site, cms-api answers every request as Statamic 6.1's REST API does, "
                "except where listed below."),
           "The golden test of", ".B make check",
           "compares the two on four real sites and fails on any other difference.",
           ".SS Decisions of cms\\-api", roff("Where cms-api differs from Statamic on purpose.")]
    kinds = (("contract", None),
             ("statamic", [".SS Statamic defects not copied",
                           roff("Where Statamic's answer is wrong, and cms-api gives the right one.")]))
    for kind, head in kinds:
        out += head or []
        for a in accepted:
            if a.kind == kind:
                out += [".TP", ".B " + roff(a.title), roff(a.reason)]
    out.append(MAN_END)
    return "\n".join(out) + "\n"


def man_split(path):
    """FILE's text before, inside and after the generated section."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    b, e = text.find(MAN_BEGIN), text.find(MAN_END)
    if b < 0 or e < b:
        raise ValueError(f"{path}: no section between '{MAN_BEGIN}' and '{MAN_END}'")
    e = text.index("\n", e) + 1
    return text[:b], text[b:e], text[e:]


# ------------------------------------------------------------------ the report
def check(sites, out_dir, golden, accepted, pending, verbose, propose):
    """Sorts every difference of every site (golden: Statamic's answers, for
    the tests that look into them); prints the summary; returns the number
    of problems."""
    problems = 0
    failing = collections.defaultdict(list)  # (site, generic request, generic path, class) -> items
    print(f"{'golden: site':28} {'requests':>8} {'identical':>9} {'accepted':>8} {'pending':>7} {'failing':>7}")
    for site in sites:
        with open(os.path.join(out_dir, f"{site}-v6", "results.json"), encoding="utf-8") as f:
            results = json.load(f)["results"]
        n = collections.Counter()
        for rec in results:
            worst = "identical"
            for item in items_of(site, rec, golden):
                how, rule = sort_item(item, accepted, pending)
                if rule is not None:
                    rule.count += 1
                else:
                    failing[(site, generic_request(item.request), generic_path(item.path), item.klass)].append(item)
                worst = max(worst, how, key=["identical", "accepted", "pending", "failing"].index)
            n[worst] += 1
        print(f"golden: {site:20} {len(results):8d} {n['identical']:9d} {n['accepted']:8d} {n['pending']:7d} {n['failing']:7d}")
        problems += n["failing"]
    for (site, req, path, klass), its in sorted(failing.items()):
        ex = its[0]
        print(f"FAIL: {site}: {klass}: {len(its)} difference(s), e.g. {ex.request} {ex.path}\n"
              f"      Statamic {ex.statamic[:150]}\n      cms-api  {ex.cms[:150]}")
    if propose and failing:
        print("golden: pending.txt lines for these (name the defect, then sort the file):")
        for (site, req, path, klass) in sorted(failing):
            print(f"DEFECT | {site} | {req} | {path or '*'} | {klass}")
    for p in pending:
        if p.count == 0:
            problems += 1
            print(f"FAIL: pending.txt:{p.n} matches no difference any more (fixed? delete the line): {p.line}")
    if verbose:
        for a in accepted:
            print(f"golden: accepted {a.id}: {a.count} difference(s)" + (f" ({a.note})" if a.note else ""))
        for p in pending:
            print(f"golden: pending.txt:{p.n}: {p.count} difference(s)")
    return problems


def man_command(args, accepted):
    """--man-section, --check-man FILE, --write-man FILE: the exit status."""
    if args.man_section:
        sys.stdout.write(man_section(accepted))
        return 0
    path = args.check_man or args.write_man
    try:
        before, now, after = man_split(path)
    except (OSError, ValueError) as e:
        print(f"FAIL: {e}")
        return 1
    if args.write_man:
        with open(path, "w", encoding="utf-8") as f:
            f.write(before + man_section(accepted) + after)
        return 0
    if now != man_section(accepted):
        print(f"FAIL: {path}'s DIFFERENCES FROM STATAMIC is not what tests/golden/accepted.yaml says: "
              f"run tests/golden/check.py --write-man {path}")
        return 1
    print(f"golden: {path} lists the {len(accepted)} accepted differences of accepted.yaml")
    return 0


def run_sites(args, sites):
    """Runs diff.py for each site into args.out; a message when it cannot."""
    missing = [p for p in ["oracle/diff.py"] + [f"oracle/golden/{s}/requests.tsv" for s in sites]
               + [f"corpora/{s}" for s in sites] if not os.path.exists(os.path.join(args.shared, p))]
    if missing:
        return (f"the golden test needs the corpora and the oracle in {args.shared} (configure "
                f"CMS_API_SHARED=DIR, or make check CMS_API_SHARED=DIR); missing: {', '.join(missing)}")
    os.makedirs(args.out, exist_ok=True)
    for site in sites:
        try:
            run_diff(args.shared, args.bin, args.out, site)
        except (OSError, RuntimeError) as e:
            return str(e)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", help="the folder holding corpora/ and oracle/ (default with --results: "
                    "../shared beside the source tree)")
    ap.add_argument("--bin", help="the cms-api binary to test")
    ap.add_argument("--out", help="where diff.py's results go (OUT/<site>-v6/results.json)")
    ap.add_argument("--results", help="sort the results already in this folder; run nothing")
    ap.add_argument("--site", action="append", choices=SITES, help="only this site (repeatable)")
    ap.add_argument("--accepted", default=os.path.join(HERE, "accepted.yaml"))
    ap.add_argument("--pending", default=os.path.join(HERE, "pending.txt"))
    ap.add_argument("--propose", action="store_true", help="print pending.txt lines for the failing differences")
    ap.add_argument("--man-section", action="store_true")
    ap.add_argument("--check-man")
    ap.add_argument("--write-man")
    ap.add_argument("-v", "--verbose", action="store_true", help="how often each rule matched")
    args = ap.parse_args()
    try:
        accepted = load_accepted(args.accepted)
        pending, problems = load_pending(args.pending)
    except (OSError, ValueError, yaml.YAMLError) as e:
        sys.exit(f"golden: {e}")
    if args.man_section or args.check_man or args.write_man:
        return man_command(args, accepted)
    sites = args.site or SITES
    if not args.results:
        if not (args.shared and args.bin and args.out):
            ap.error("--shared, --bin and --out (or --results)")
        why = run_sites(args, sites)
        if why:
            print(f"FAIL: {why}")
            return 1
    for p in problems:
        print("FAIL: " + p)
    if args.site:  # some sites only: the others' pending lines cannot be judged
        pending = [p for p in pending if p.site in sites + ["*"]]
    golden = Golden(args.shared or os.path.join(HERE, "..", "..", "..", "shared"))
    n = len(problems) + check(sites, args.results or args.out, golden, accepted, pending, args.verbose,
                              args.propose)
    print(f"golden: {'FAILED, ' + str(n) + ' problem(s)' if n else 'passed'}")
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main())
