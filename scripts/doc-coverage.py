#!/usr/bin/env python3
"""Lists every public declaration in the library sources that has no `///` doc comment.

A declaration is a line that starts (after attributes) with `public` or `open`,
or a member of a `public extension`, or a `case` of a public enum. Its doc
comment is the run of `///` lines (or a `/** */` block) directly above it,
attributes in between allowed. Exits 1 when any is missing, printing
file:line: declaration for each.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIBRARIES = ["FPVocabulary", "FPCore", "FPReaders", "FPStore", "FPAuthentication", "FPImaging", "LocalAuthentication"]
DECL = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|open)\b(?!\s*(?:import|extension)\b)")
PUBLIC_ENUM = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*public\s+(?:indirect\s+)?enum\b")
PUBLIC_EXTENSION = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*public\s+extension\b")
MEMBER = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:static\s+|mutating\s+|nonisolated\s+|convenience\s+)*(?:func|var|let|init|subscript|case|typealias)\b")
CASE = re.compile(r"^\s*case\s+\w")


def documented(lines, index):
    j = index - 1
    while j >= 0 and (lines[j].strip().startswith("@") or lines[j].strip().startswith("#if")
                      or lines[j].strip().startswith("#endif")):
        j -= 1
    return j >= 0 and (lines[j].strip().startswith("///") or lines[j].strip().endswith("*/"))


def check(path):
    missing = []
    lines = path.read_text().splitlines()
    # (kind, depth at which members live)
    scopes = []
    depth = 0
    for i, line in enumerate(lines):
        code = re.sub(r"//.*$", "", line)
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', code)
        inner = scopes[-1][0] if scopes and scopes[-1][1] == depth else None
        is_decl = bool(DECL.match(line))
        if not is_decl and inner == "enum" and CASE.match(line):
            is_decl = True
        if not is_decl and inner == "extension" and MEMBER.match(line) and not re.match(r"^\s*(private|fileprivate|internal|package)\b", line):
            is_decl = True
        if is_decl and not documented(lines, i):
            missing.append(f"{path.relative_to(ROOT)}:{i + 1}: {line.strip()}")
        opens = code.count("{")
        closes = code.count("}")
        if opens > closes:
            if PUBLIC_ENUM.match(line):
                scopes.append(("enum", depth + 1))
            elif PUBLIC_EXTENSION.match(line):
                scopes.append(("extension", depth + 1))
            else:
                scopes.append(("other", depth + 1))
        depth += opens - closes
        while scopes and scopes[-1][1] > depth:
            scopes.pop()
    return missing


def main():
    missing = []
    for name in LIBRARIES:
        for path in sorted((ROOT / "Sources" / name).rglob("*.swift")):
            missing += check(path)
    for entry in missing:
        print(entry)
    if missing:
        print(f"{len(missing)} public declarations have no doc comment", file=sys.stderr)
        return 1
    print("every public declaration has a doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
