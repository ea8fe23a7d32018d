#!/usr/bin/env python3
"""Functions longer than LIMIT lines (default 80; from the `fn` line to its closing
brace, comments and strings blanked first so their braces do not count) in the Rust files
under the given directories; prints `lines path:line name`, longest first, and the count.
Issue 61 counts with: python3 scripts/long-functions.py crates src"""
import re, sys, os
LIMIT = int(os.environ.get("LIMIT", "80"))
def strip(src):
    # Blank out comments, strings and char literals, keeping newlines, so braces count.
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i); j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j])); i = j
        elif c == 'r' and re.match(r'r#*"', src[i:i+10]) and (i == 0 or not (src[i-1].isalnum() or src[i-1] == '_')):
            m = re.match(r'r(#*)"', src[i:]); hashes = m.group(1)
            end = src.find('"' + hashes, i + len(m.group(0)))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", src[i:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", src[i:j])); i = j
        elif c == "'":
            m = re.match(r"'(\\.|\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|[^\\'])'", src[i:])
            if m:
                out.append(" " * len(m.group(0))); i += len(m.group(0))
            else:
                out.append(c); i += 1
        else:
            out.append(c); i += 1
    return "".join(out)
found = []
for root in sys.argv[1:]:
    for dp, _, fs in os.walk(root):
        for f in fs:
            if not f.endswith(".rs"): continue
            p = os.path.join(dp, f)
            s = strip(open(p).read())
            for m in re.finditer(r"\bfn\s+(\w+)", s):
                # the body: the first `{` after the signature (a `;` first: no body)
                k = m.end()
                depth_paren = 0
                while k < len(s):
                    ch = s[k]
                    if ch in "(<[": depth_paren += 1
                    elif ch in ")>]": depth_paren -= 1
                    elif ch == ";" and depth_paren <= 0: k = -1; break
                    elif ch == "{" and depth_paren <= 0: break
                    k += 1
                if k < 0 or k >= len(s): continue
                d = 0; e = k
                while e < len(s):
                    if s[e] == "{": d += 1
                    elif s[e] == "}":
                        d -= 1
                        if d == 0: break
                    e += 1
                start = s.count("\n", 0, m.start()) + 1
                end = s.count("\n", 0, e) + 1
                if end - start + 1 > LIMIT:
                    found.append((end - start + 1, f"{p}:{start}", m.group(1)))
for n, where, name in sorted(found, reverse=True):
    print(n, where, name)
print(len(found), "functions over", LIMIT, "lines", file=sys.stderr)
