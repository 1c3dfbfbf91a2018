#!/usr/bin/env python3
"""Parses every API document under api/ as YAML and checks the OpenAPI shape a reader relies on.

scripts/test.sh runs it before the suites: the API fuzz stage, at the end of a run, is the only
other reader of these files, and a document that does not parse should fail a run in its first
minutes, not its last. Prints each document's problem and exits 1 if there is one.
"""
import pathlib
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent


def problems(path: pathlib.Path) -> list[str]:
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        return [f"does not parse as YAML: {error}"]
    if not isinstance(document, dict):
        return ["is not a mapping at its top"]
    found = []
    if not str(document.get("openapi", "")).startswith("3."):
        found.append("names no OpenAPI 3 version ('openapi: 3.x')")
    if not isinstance(document.get("paths"), dict) or not document["paths"]:
        found.append("has no paths")
    return found


def main() -> int:
    documents = sorted((ROOT / "api").glob("*.yaml"))
    if not documents:
        print("check-api-documents: no api/*.yaml found", file=sys.stderr)
        return 1
    failed = False
    for path in documents:
        for problem in problems(path):
            failed = True
            print(f"check-api-documents: {path.relative_to(ROOT)} {problem}", file=sys.stderr)
    if not failed:
        print(f"check-api-documents: {len(documents)} API documents parse")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
