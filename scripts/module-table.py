#!/usr/bin/env python3
"""README's module table, generated from Package.swift.

The modules and their dependencies come from `swift package dump-package` (JSON); what each
module is for comes from the comment lines directly above its target in Package.swift, so
that the sentence lives beside the target it describes and nowhere else. Test targets are
left out; a target without a comment is an error naming it.

    python3 scripts/module-table.py            # print the table
    python3 scripts/module-table.py --check    # exit 1 when README.md's table differs
    python3 scripts/module-table.py --write    # rewrite README.md's table

The table sits in README.md between <!-- module-table --> and <!-- /module-table -->.
"""
import difflib
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PACKAGE = ROOT / "Package.swift"
BEGIN = "<!-- module-table -->"
END = "<!-- /module-table -->"
KINDS = {"system": "system library", "regular": "library", "executable": "executable"}


def fail(message, status=2):
    print(f"module-table: {message}", file=sys.stderr)
    sys.exit(status)


def dump_package():
    try:
        out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        fail(f"`swift package dump-package` failed: {getattr(error, 'stderr', '') or error}")
    return json.loads(out)


def comments_above_targets(text):
    """Target name -> the `//` lines directly above its `.target(` (or its kin), joined."""
    lines = text.split("\n")
    found = {}
    for index, line in enumerate(lines):
        call = re.match(r"\s*\.(target|executableTarget|systemLibrary|testTarget)\(", line)
        if not call:
            continue
        # The name is on the call's line or the next one.
        name = re.search(r'name: "([^"]+)"', line) or re.search(r'name: "([^"]+)"', lines[index + 1])
        above = []
        cursor = index - 1
        while cursor >= 0 and lines[cursor].strip().startswith("//"):
            above.insert(0, lines[cursor].strip()[2:].strip())
            cursor -= 1
        found[name.group(1)] = " ".join(above)
    return found


def cell(text):
    return text.replace("|", "\\|")


def table():
    package = dump_package()
    comments = comments_above_targets(PACKAGE.read_text())
    targets = [t for t in package["targets"] if t["type"] != "test"]
    names = {t["name"] for t in package["targets"]}
    products = {}
    for product in package["products"]:
        kind = next(iter(product["type"]))
        for target in product["targets"]:
            products.setdefault(target, set()).add(kind)

    rows = ["| Module | Kind | What it is for | Depends on (this package) |",
            "|---|---|---|---|"]
    for target in targets:
        name = target["name"]
        purpose = comments.get(name, "")
        if not purpose:
            fail(f"Package.swift: target {name} has no comment line directly above it; "
                 "add one saying what the module is for (the table takes it from there)")
        path = target.get("path") or f"Sources/{name}"
        kind = KINDS.get(target["type"], target["type"])
        if name in products:
            kind += ", product"
        depends = []
        for dependency in target["dependencies"]:
            by_name = dependency.get("byName") or dependency.get("target")
            if by_name and by_name[0] in names:
                depends.append(by_name[0])
        rows.append(f"| [{name}]({path}) | {kind} | {cell(purpose)} | {', '.join(depends) or '—'} |")
    return "\n".join(rows) + "\n"


def readme_parts():
    text = README.read_text()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        fail(f"README.md has no {BEGIN} ... {END} block")
    head = text[:start + len(BEGIN)] + "\n"
    return head, text[start + len(BEGIN):end].strip("\n") + "\n", text[end:]


def main(argv):
    mode = argv[1] if len(argv) > 1 else "--print"
    if mode not in ("--print", "--check", "--write"):
        fail(f"unknown option {mode}; use --check, --write or nothing (print)")
    generated = table()
    if mode == "--print":
        sys.stdout.write(generated)
        return 0
    head, current, tail = readme_parts()
    if mode == "--write":
        README.write_text(head + generated + tail)
        return 0
    if current != generated:
        print("module-table: README.md's module table differs from Package.swift; "
              "run `python3 scripts/module-table.py --write` and commit README.md:", file=sys.stderr)
        sys.stderr.writelines(difflib.unified_diff(current.splitlines(True), generated.splitlines(True),
                                                   "README.md", "generated from Package.swift"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
