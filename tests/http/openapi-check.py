#!/usr/bin/python3
"""openapi-check.py DIR: checks the OpenAPI documents cms-api wrote and
every answer the HTTP tests got against the document of its config.

DIR holds what tests/http/lib.sh recorded: docs/N.json, the document of
each config a server was started with (`cms-api openapi`), and
answers.tsv, a line per answer: docs, method, URI, status, Content-Type,
body file (tab-separated). docs is the document in force and the one
before it ("12.json,11.json"; "-" for none): an answer just after a test
edited the site or the INI may still be of the config before, since the
workers see a change within a second; it passes when either names it.

Each document must validate against OpenAPI 3.1's own schema
(oas-3.1-schema.json beside this file: the OpenAPI Initiative's
https://spec.openapis.org/oas/3.1/schema/2022-10-07, Apache License 2.0),
every schema in it must be a valid JSON Schema 2020-12 and every $ref must
resolve. Each answer must then be one the document names:
  - an answer to a path the document has: its method's operation (HEAD as
    GET), a response for the status, the Content-Type among its content,
    and a JSON body valid against the response's schema;
  - any other answer under the document's server (an unknown path, a
    method other than GET, HEAD or a preflight's OPTIONS, a disabled
    API): an error, {"message"} as components.schemas.Error says.
Answers outside the server's path (another prefix) are counted apart.
Prints "openapi: N answers checked against M documents, K failed" and
exits 1 on any failure. Only Debian's python3 and python3-jsonschema.
"""
import json
import os
import re
import sys
import warnings
from urllib.parse import urlsplit, unquote

warnings.simplefilter("ignore", DeprecationWarning)
import jsonschema  # noqa: E402
from jsonschema import Draft202012Validator, RefResolver  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def load_json(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def walk_refs(node, out):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            out.append(ref)
        for v in node.values():
            walk_refs(v, out)
    elif isinstance(node, list):
        for v in node:
            walk_refs(v, out)


def walk_schemas(doc):
    """Every schema object of the document (components and inline)."""
    for name, schema in doc.get("components", {}).get("schemas", {}).items():
        yield "components.schemas." + name, schema
    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            if not isinstance(op, dict) or method == "parameters":
                continue
            for status, resp in op.get("responses", {}).items():
                for ctype, media in resp.get("content", {}).items():
                    if "schema" in media:
                        yield "%s %s %s %s" % (method, path, status, ctype), media["schema"]


def resolve(doc, ref):
    if not ref.startswith("#/"):
        raise KeyError(ref)
    node = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def check_document(doc, oas):
    problems = []
    errors = sorted(Draft202012Validator(oas).iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:5]:
        problems.append("not OpenAPI 3.1 at %s: %s" % ("/".join(map(str, e.path)), e.message[:200]))
    for where, schema in walk_schemas(doc):
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as e:
            problems.append("%s: not a JSON Schema: %s" % (where, e.message[:200]))
    refs = []
    walk_refs(doc, refs)
    for ref in set(refs):
        try:
            resolve(doc, ref)
        except (KeyError, TypeError):
            problems.append("$ref does not resolve: " + ref)
    for path, item in doc.get("paths", {}).items():
        declared = {p["name"] for p in item.get("parameters", []) if p.get("in") == "path"}
        for name in re.findall(r"\{([^}]+)\}", path):
            if name not in declared:
                problems.append("%s: path parameter %s is not declared" % (path, name))
    return problems


class Document:
    def __init__(self, doc):
        self.doc = doc
        self.prefix = urlsplit(doc["servers"][0]["url"]).path.rstrip("/")
        self.resolver = RefResolver(base_uri="", referrer=doc)
        self.paths = []
        for template, item in doc["paths"].items():
            pattern = ""
            for piece in re.split(r"(\{[^}]+\})", template):
                if piece == "{path}":
                    pattern += "(?:[^/]+(?:/[^/]+)*)"
                elif piece.startswith("{"):
                    pattern += "[^/]+"
                else:
                    pattern += re.escape(piece)
            self.paths.append((re.compile("^" + pattern + "$"), template, item))

    def validate(self, schema, value):
        errors = list(Draft202012Validator(schema, resolver=self.resolver).iter_errors(value))
        return errors[0].message[:300] if errors else None

    def error_schema(self):
        return {"$ref": "#/components/schemas/Error"}

    def match(self, path):
        """The path item of an API path (below the prefix), or None."""
        for regex, template, item in self.paths:
            if regex.match(path):
                return template, item
        return None


def check_answer(d, method, uri, status, ctype, body):
    """None when the answer is one d names, else why not."""
    split = urlsplit(uri)
    path = split.path
    if d.prefix and not (path == d.prefix or path.startswith(d.prefix + "/")):
        return "outside"
    below = path[len(d.prefix):] or "/"
    if below != "/" and below.endswith("/"):
        below = below.rstrip("/") or "/"
    found = d.match(unquote(below)) if "%2f" not in below.lower() else None
    if found is None:
        found = d.match(below)
    op = None
    if found:
        template, item = found
        op = item.get("head" if method == "HEAD" else method.lower()) or (
            item.get("get") if method == "HEAD" else None)
    if op is None:
        # Not a documented operation: only an error may answer it.
        if int(status) < 400:
            return "%s %s: %s answered to an operation the document lacks" % (method, uri, status)
        if method == "HEAD" or not body:
            return None
        if not ctype.startswith("application/json"):
            return "%s %s: error %s as %s" % (method, uri, status, ctype)
        why = d.validate(d.error_schema(), json.loads(body))
        return "%s %s: error body: %s" % (method, uri, why) if why else None
    responses = op.get("responses", {})
    resp = responses.get(str(status)) or responses.get("default")
    if resp is None:
        return "%s %s: status %s is not among the operation's %s" % (
            method, uri, status, ", ".join(sorted(responses)))
    if "$ref" in resp:
        resp = resolve(d.doc, resp["$ref"])
    content = resp.get("content")
    if not content or method == "HEAD" or str(status) in ("204", "304"):
        return None
    media_type = ctype.split(";")[0].strip()
    if media_type not in content:
        return "%s %s: %s is not among %s" % (method, uri, media_type, ", ".join(content))
    if not media_type.endswith("json"):
        return None
    if not body:
        return "%s %s: an empty body" % (method, uri)
    try:
        value = json.loads(body)
    except ValueError as e:
        return "%s %s: not JSON: %s" % (method, uri, e)
    why = d.validate(content[media_type]["schema"], value)
    return "%s %s (%s): %s" % (method, uri, status, why) if why else None


def main():
    root = sys.argv[1]
    oas = load_json(os.path.join(HERE, "oas-3.1-schema.json"))
    failures = []
    documents = {}
    answers_file = os.path.join(root, "answers.tsv")
    lines = open(answers_file, encoding="utf-8", errors="replace").read().splitlines() \
        if os.path.exists(answers_file) else []
    for name in sorted(os.listdir(os.path.join(root, "docs"))) if os.path.isdir(
            os.path.join(root, "docs")) else []:
        try:
            doc = load_json(os.path.join(root, "docs", name))
        except ValueError as e:
            failures.append("docs/%s: not JSON: %s" % (name, e))
            continue
        for p in check_document(doc, oas):
            failures.append("docs/%s: %s" % (name, p))
        documents[name] = Document(doc)
    checked = outside = 0
    for line in lines:
        parts = line.split("\t")
        if len(parts) != 6:
            continue
        docs, method, uri, status, ctype, body_file = parts
        docs = [d for d in docs.split(",") if d in documents]
        if not docs:
            continue
        doc = docs[0]
        if not status.isdigit():
            continue  # no answer at all (a test that closed the connection)
        with open(os.path.join(root, body_file), "rb") as f:
            body = f.read()
        if body[:2] == b"\x1f\x8b":
            continue  # a gzip body: the same answer, checked uncompressed elsewhere
        if ctype.startswith("text/html"):
            continue  # the web server's own page (a redirect, its 404), not cms-api's
        text = body.decode("utf-8", "replace")
        why = check_answer(documents[doc], method, uri, status, ctype, text)
        if why and why != "outside" and len(docs) > 1 and \
                check_answer(documents[docs[1]], method, uri, status, ctype, text) is None:
            why = None
        if why == "outside":
            outside += 1
            continue
        checked += 1
        if why:
            failures.append("answers.tsv (%s): %s" % (doc, why))
    for f in failures[:40]:
        print("FAIL: openapi: " + f)
    if len(failures) > 40:
        print("FAIL: openapi: ... and %d more" % (len(failures) - 40))
    print("openapi: %d answers checked against %d documents (%d outside their route), %d failed"
          % (checked, len(documents), outside, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
