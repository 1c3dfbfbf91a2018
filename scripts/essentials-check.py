#!/usr/bin/env python3
"""The targets Package.swift builds with `foundationEssentialsOnly` import FoundationEssentials,
never Foundation: the compiler rejects Foundation's APIs only while no file imports it."""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
package = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                    capture_output=True, text=True).stdout)
# Foundation itself and its other parts (FoundationInternationalization, FoundationNetworking),
# whatever follows the name on the line; only FoundationEssentials is allowed.
importing = re.compile(r"^\s*(@\w+(\([^)]*\))?\s+)*((public|package|internal|private|fileprivate)\s+)?import\s+"
                       r"((class|struct|enum|func|var|let|protocol|typealias)\s+)?Foundation(?!Essentials\b)\w*\b")
checked, offenders = [], []
for target in package["targets"]:
    if "MemberImportVisibility" not in json.dumps(target.get("settings", [])):
        continue
    checked.append(target["name"])
    directory = os.path.join(root, target.get("path") or os.path.join("Sources", target["name"]))
    for folder, _, files in os.walk(directory):
        for name in files:
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as file:
                for number, line in enumerate(file, 1):
                    if importing.match(line):
                        offenders.append(f"{os.path.relpath(path, root)}:{number}: {line.strip()}")
if not checked:
    sys.exit("essentials-check: no target is built with foundationEssentialsOnly; Package.swift changed?")
if offenders:
    print("essentials-check: these targets use FoundationEssentials only (see Package.swift); found:", file=sys.stderr)
    print("\n".join(offenders), file=sys.stderr)
    sys.exit(1)
print(f"essentials-check: {', '.join(checked)} import FoundationEssentials only")
