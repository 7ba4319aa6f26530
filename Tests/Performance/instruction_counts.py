#!/usr/bin/env python3
"""The instruction counts of the Performance article, measured again.

Builds remindc and remindc-benchmark as static release binaries, strips their debug
information (valgrind cannot read it), writes the workloads, and counts every
instruction of each measured command with `valgrind --tool=callgrind` (whole process,
all threads). Each runs with Swift's hashing seeded alike (`SWIFT_DETERMINISTIC_HASHING`)
and, where `setarch` is found, without address randomisation: the per-process seed and
the addresses moved a count by up to 0.05 % from run to run. With them a command repeats
its count exactly, and a run of this script repeats the last one's within 0.01 % (the
work folder's random name is in the paths), so that a change in a count is a change in
the code, not in the machine.

    Tests/Performance/instruction_counts.py                    # print the table
    Tests/Performance/instruction_counts.py --record FILE      # and keep it as a baseline
    Tests/Performance/instruction_counts.py --check FILE       # fail on a regression

`--check` is the regression check to run before a release: it exits 1 when a count is
more than `--tolerance` (2 % by default) above the baseline's, and names it. A count
well below says the baseline is stale: record a new one with the change that earned it.
The committed baseline is `Tests/Performance/instruction_baseline.json`, taken on the
project's build machine; another machine's toolchain may differ by a few per cent.
`--floor` also counts the C programs of `Tests/Performance/floor/`, which write the same
bytes from the same notification values without planning, and a Swift program that only
parses `compile`'s command line with swift-argument-parser (see the article).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOW = "2026-11-22T08:00:00Z"
FLOORS = ("C floor: W2 plan JSON from its values, reading them excluded",
          "C floor: W2 plan JSON with each fingerprint hashed from its fields")
PARSER_FLOOR = "argument parser floor: compile's command line parsed, nothing else"
LATER = "2026-11-23T08:00:00Z"


def run(arguments, **options):
    # The workloads' warnings (W2 has a shared numericId) are not what is measured.
    options.setdefault("stderr", subprocess.DEVNULL)
    return subprocess.run(arguments, check=True, **options)


def build(scratch):
    for product in ("remindc", "remindc-benchmark"):
        run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", scratch, "--product", product],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=None)
    return os.path.join(scratch, "release")


def count(arguments, work):
    """The instructions of one whole process, as callgrind counts them."""
    fixed = ["setarch", "-R"] if shutil.which("setarch") else []
    result = subprocess.run(
        fixed + ["valgrind", "--tool=callgrind", f"--callgrind-out-file={work}/callgrind.out"] + arguments,
        cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1"))
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(arguments)}\n{result.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", result.stderr)
    if not found:
        sys.exit(f"no count from callgrind for {' '.join(arguments)}")
    return int(found.group(1))


def measurements(remindc, benchmark, work):
    """(name, counting function) for each figure, in the article's order."""
    w = lambda name: f"{work}/{name}"
    compile_w2 = [remindc, "compile", w("w2.plist"), "--now", NOW, "-o", w("w2.json")]

    def replan(reconciling):
        extra = ["--reconcile"] if reconciling else []
        one = count([benchmark, "--replan", "1"] + extra, work)
        many = count([benchmark, "--replan", "101"] + extra, work)
        return (many - one) // 100

    def diff():
        run([remindc, "compile", w("w2.plist"), "--now", NOW, "-o", w("a.json")])
        run([remindc, "compile", w("w2.plist"), "--now", LATER, "-o", w("b.json")])
        return count([remindc, "diff", w("a.json"), w("b.json"), "--format", "json"], work)

    return [
        ("remindc --version", lambda: count([remindc, "--version"], work)),
        ("check of W1", lambda: count([remindc, "check", w("w1.plist")], work)),
        ("compile of W1, plan JSON", lambda: count([remindc, "compile", w("w1.plist"), "--now", NOW, "-o", w("w1.json")], work)),
        ("W1 re-plan in process", lambda: replan(False)),
        ("W1 re-plan and reconcile in process", lambda: replan(True)),
        ("W2 compile, plan JSON", lambda: count(compile_w2, work)),
        ("W2 compile, plan JSON + expanded .ics", lambda: count(compile_w2 + ["--ics", w("w2.ics")], work)),
        ("W2 compile, plan JSON + recurring .ics",
         lambda: count(compile_w2 + ["--ics", w("w2r.ics"), "--ics-style", "recurring"], work)),
        ("W2 shape, 10 reminders, plan JSON",
         lambda: count([remindc, "compile", w("w2-10.plist"), "--now", NOW, "-o", w("w2-10.json")], work)),
        ("W2 shape, 1 000 reminders, plan JSON",
         lambda: count([remindc, "compile", w("w2-1000.plist"), "--now", NOW, "-o", w("w2-1000.json")], work)),
        ("diff of two W2 plans a day apart", diff),
        ("compile of W2 with --previous", lambda: count(compile_w2[:-1] + [w("w2p.json"), "--previous", w("a.json")], work)),
        ("ics of a W2 plan", lambda: count([remindc, "ics", w("a.json"), "-o", w("a.ics")], work)),
    ]


def parser_floor(scratch, work):
    """A program that parses `compile CONFIG --now T -o FILE` with swift-argument-parser and
    does nothing else, built as remindc is (static release, the same checkout of the
    parser), so that its count is what any command line of remindc pays before it works."""
    package = f"{work}/argument-parser-floor"
    os.makedirs(f"{package}/Sources/floor")
    shutil.copy(os.path.join(ROOT, "Tests", "Performance", "floor", "argument_parser_floor.swift"),
                f"{package}/Sources/floor/floor.swift")
    checkout = os.path.join(scratch, "checkouts", "swift-argument-parser")
    with open(f"{package}/Package.swift", "w") as manifest:
        manifest.write(
            "// swift-tools-version: 6.0\n"
            "import PackageDescription\n"
            "let package = Package(name: \"floor\",\n"
            f"    dependencies: [.package(path: {json.dumps(checkout)})],\n"
            "    targets: [.executableTarget(name: \"floor\", dependencies: [.product(name: \"ArgumentParser\", package: \"swift-argument-parser\")])])\n")
    run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "floor"],
        cwd=package, stdout=subprocess.DEVNULL, stderr=None)
    program = f"{work}/argument_parser_floor"
    shutil.copy(f"{package}/.build/release/floor", program)
    run(["strip", "--strip-debug", program])
    return count([program, "compile", f"{work}/w1.plist", "--now", NOW, "-o", f"{work}/floor-w1.json"], work)


def floor_measurements(benchmark, work):
    """The C floor: the same plan JSON bytes written from the notifications' values."""
    source = os.path.join(ROOT, "Tests", "Performance", "floor", "plan_json_floor.c")
    program = f"{work}/plan_json_floor"
    run(["cc", "-O2", "-o", program, source], stderr=None)

    w2_values = f"{work}/w2.values"

    def floor(*mode):
        if not os.path.exists(w2_values):
            run([benchmark, "--write-values", w2_values], stdout=subprocess.DEVNULL)
        run([program, w2_values, f"{work}/floor.json", *mode])
        if open(f"{work}/floor.json", "rb").read() != open(f"{work}/w2.json", "rb").read():
            sys.exit("the floor program's plan differs from remindc's")
        reading = count([program, w2_values, "-"], work)
        return count([program, w2_values, f"{work}/floor.json", *mode], work) - reading

    return [
        (FLOORS[0], floor),
        # The fingerprints are part of the plan; any writer must hash each notification's
        # fields for its own, so this is the floor of making the same bytes.
        (FLOORS[1], lambda: floor("fingerprints")),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scratch", default=os.path.join(ROOT, ".build-static"), help="SwiftPM scratch path")
    parser.add_argument("--record", metavar="FILE", help="write the counts to FILE as the new baseline")
    parser.add_argument("--check", metavar="FILE", help="compare with the baseline in FILE; exit 1 on a regression")
    parser.add_argument("--tolerance", type=float, default=0.02, help="allowed rise over the baseline (default 0.02)")
    parser.add_argument("--only", help="measure only the figures whose name contains this text")
    parser.add_argument("--floor", action="store_true",
                        help="also count the C floor programs and the argument parser's floor (a SwiftPM package built in a temporary folder)")
    options = parser.parse_args()
    # SwiftPM runs in ROOT: a relative scratch path means one there, for the builds and the floor alike.
    options.scratch = os.path.join(ROOT, options.scratch)
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")

    binaries = build(options.scratch)
    with tempfile.TemporaryDirectory() as work:
        remindc, benchmark = f"{work}/remindc", f"{work}/remindc-benchmark"
        for name, path in (("remindc", remindc), ("remindc-benchmark", benchmark)):
            shutil.copy(os.path.join(binaries, name), path)
            run(["strip", "--strip-debug", path])
        run([benchmark, "--write-workloads", work], stdout=subprocess.DEVNULL)
        figures = measurements(remindc, benchmark, work)
        if options.floor:
            run([remindc, "compile", f"{work}/w2.plist", "--now", NOW, "-o", f"{work}/w2.json"])
            figures += floor_measurements(benchmark, work)
            figures.append((PARSER_FLOOR, lambda: parser_floor(options.scratch, work)))
        counts = {}
        print("| figure | instructions |\n|---|---|")
        for name, measure in figures:
            if options.only and options.only not in name:
                continue
            counts[name] = measure()
            millions = f"{counts[name] / 1e6:,.2f}".replace(",", " ")
            print(f"| {name} | {millions} M |", flush=True)

    for floor_name in FLOORS:
        floor = counts.get(floor_name)
        if floor and "W2 compile, plan JSON" in counts:
            print(f"\nW2 plan JSON, whole process, against '{floor_name}': {counts['W2 compile, plan JSON'] / floor:.1f}x")
    if options.record:
        with open(options.record, "w") as file:
            json.dump(counts, file, indent=2)
            file.write("\n")
    if options.check:
        baseline = json.load(open(options.check))
        regressions = []
        for name, value in counts.items():
            if name not in baseline:
                print(f"not in the baseline: {name}")
                continue
            change = value / baseline[name] - 1
            if change > options.tolerance:
                regressions.append(f"{name}: {baseline[name]:,} -> {value:,} ({change:+.1%})")
            elif change < -options.tolerance:
                print(f"below the baseline, record a new one: {name} ({change:+.1%})")
        if regressions:
            print("regressions over the baseline:\n  " + "\n  ".join(regressions))
            sys.exit(1)
        print("no count is more than {:.0%} above the baseline".format(options.tolerance))


if __name__ == "__main__":
    main()
