#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate check_docs.c from docs/checks.md: for every check id, the
section that documents it (its GitHub anchor) and its text, so that the
SARIF renderer's rules carry the same documentation people read.

usage: check_docs.py docs/checks.md OUT.c

An id is documented by a heading "#### `id` ..." (the text up to the next
heading) or by a table row whose first cell names it (the row, each cell
under its column's header).  docs/checks.md stays the one source.
"""
import re
import sys

ID = re.compile(r"`([a-z0-9_]+(?:\.[a-z0-9_*]+)+)`")


def slug(heading, seen):
    # GitHub's anchors: lower case, punctuation dropped, spaces -> '-'.
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    s = s.replace(" ", "-")
    n = seen.get(s, 0)
    seen[s] = n + 1
    return s if n == 0 else "%s-%d" % (s, n)


def plain(md):
    md = re.sub(r"\*\*([^*]+)\*\*", r"\1", md)
    md = md.replace("`", "")
    md = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", md)
    return " ".join(md.split())


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse_all(text):
    """Every entry of each id, in the order of the file: (anchor, text)."""
    docs = {}
    seen = {}
    anchor = ""
    lines = text.splitlines()
    i = 0
    header = None
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(#+)\s+(.*)$", line)
        if m:
            anchor = slug(m.group(2), seen)
            header = None
            ids = ID.findall(m.group(2).split("(")[0])
            if len(m.group(1)) >= 4 and ids:
                body = []
                j = i + 1
                while j < len(lines) and not re.match(r"^#+\s", lines[j]):
                    body.append(lines[j])
                    j += 1
                for cid in ids:
                    docs.setdefault(cid, []).append(
                        (anchor, plain(m.group(2) + ". " + " ".join(body))))
            i += 1
            continue
        if line.startswith("|"):
            row = cells(line)
            if header is None:
                header = row
            elif not set("".join(row)) <= set("-: "):
                ids = ID.findall(row[0])
                if ids and header and header[0].lower() == "id":
                    parts = [plain(row[0])]
                    for h, c in zip(header[1:], row[1:]):
                        if c and c not in ("-", "–"):
                            parts.append("%s: %s" % (plain(h), plain(c)))
                    for cid in ids:
                        docs.setdefault(cid, []).append((anchor, "; ".join(parts)))
        else:
            header = None
        i += 1
    return docs


def parse(text):
    """The first entry of each id: the one SARIF's rule carries."""
    return {cid: v[0] for cid, v in parse_all(text).items()}


def c_str(s):
    s = s.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(ch if 32 <= ord(ch) < 127 else "\\x%02x\"\"" % ord(ch)
                         if ord(ch) < 128 else ch for ch in s) + '"'


def main():
    src, out = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        docs = parse(f.read())
    rows = []
    for cid in sorted(docs):
        if "*" in cid:
            continue
        anchor, text = docs[cid]
        if len(text) > 1500:
            text = text[:1500].rsplit(" ", 1)[0] + " ..."
        rows.append("\t{%s, %s, %s}," % (c_str(cid), c_str(anchor), c_str(text)))
    with open(out, "w", encoding="utf-8") as f:
        f.write("/* Generated from docs/checks.md by tools/check_docs.py: do not edit. */\n")
        f.write('#include "core/check_docs.h"\n\n')
        f.write("const struct check_doc check_docs[] = {\n")
        f.write("\n".join(rows) + "\n};\n")
        f.write("const size_t check_docs_len = %d;\n" % len(rows))


if __name__ == "__main__":
    main()
