"""Reads a remindc .ics with independent parsers and compares it with the plan.

    check_ics.py expanded ICS PLAN [--rename]   every event's instant, title and body
    check_ics.py recurring ICS PLAN [--rename]  the series expanded inside the window
    check_ics.py --manifest FILE                 many files: one "STYLE<TAB>ICS<TAB>PLAN<TAB>0|1"
                                                 line each (1 = renamed), read on two cores

Readers: icalendar and ical (expanded), recurring-ical-events (recurring), vobject
(Radicale's parser, both styles), with --libical READER the libical expander built from
read_ics_libical.c (both styles), with --sabre sabre/vobject through PHP and
read_ics_sabre.php (expanded), and with --icaljs MODULE ical.js (Thunderbird's parser,
the ES module MODULE) through Node and read_ics_icaljs.mjs (both styles), each expanding
with its own rules.

With --rename the TZID is replaced by a name no library knows, so that only the file's own
VTIMEZONE can supply the offsets: every reader but sabre/vobject gets the file without
X-LIC-LOCATION too. sabre/vobject looks a zone up by name only, so it keeps
X-LIC-LOCATION, which remindc writes for it. Prints problems and exits 1 when there are
any.
"""
import datetime
import json
import os
import re
import subprocess
import sys

import icalendar
import recurring_ical_events
import vobject
from ical.calendar_stream import IcsCalendarStream

# Snoozes and their follow-ups are events of their own in the recurring style, named by
# their IDs; every other instance belongs to a reminder's series.
STANDALONE_UID = re.compile(r"-snooze(-followup(-\d+)?)?$")


def is_standalone(notification):
    return notification["kind"] == "snooze" or notification.get("parent", "").endswith("-snooze")


RENAMED = "Remindc-Test/Renamed-Zone"


def parse_instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def utc(moment):
    # Compared in UTC: PEP 495 makes an aware time in a repeated hour unequal to every
    # time of another zone, even the same instant.
    return moment.astimezone(datetime.timezone.utc)


def check_physical_lines(raw, problems):
    if raw.startswith(b"\xef\xbb\xbf"):
        problems.append("the file starts with a byte-order mark")
    if b"\r\n" not in raw or raw.replace(b"\r\n", b"").find(b"\n") >= 0 or raw.replace(b"\r\n", b"").find(b"\r") >= 0:
        problems.append("line ends are not all CRLF")
    for number, line in enumerate(raw.split(b"\r\n"), 1):
        if len(line) > 75:
            problems.append(f"line {number} has {len(line)} octets")
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            problems.append(f"line {number} splits a UTF-8 character")


def load(path, rename):
    """The file's bytes, its text for the readers, and its text for sabre/vobject."""
    raw = open(path, "rb").read()
    text = raw.decode("utf-8")
    if rename:
        # Every VTIMEZONE: the plan's first, then those of reminders with a zone of their own.
        zones = re.findall(r"^TZID:(.*)\r$", text, re.MULTILINE)
        if not zones:  # a calendar without events has no VTIMEZONE to rename
            return raw, text, text
        for index, zone in enumerate(zones):
            renamed = RENAMED if index == 0 else f"{RENAMED}-{index + 1}"
            text = text.replace("TZID:" + zone + "\r\n", "TZID:" + renamed + "\r\n")
            text = text.replace("TZID=" + zone + ":", "TZID=" + renamed + ":")
        # X-WR-TIMEZONE only names a zone for floating times, which remindc never writes;
        # drop it so that nothing can look the real zone up by name.
        text = re.sub(r"X-WR-TIMEZONE:[^\r]*\r\n", "", text)
        by_name = text
        text = re.sub(r"X-LIC-LOCATION:[^\r]*\r\n", "", text)
        if any(zone in text for zone in zones):
            raise ValueError("renaming left a zone name in the file")
        return raw, text, by_name
    return raw, text, text


def expanded(ics_path, plan, rename):
    problems = []
    raw, text, by_name = load(ics_path, rename)
    check_physical_lines(raw, problems)
    expected = {n["id"]: n for n in plan["notifications"]}
    domain_free = lambda uid: uid.rsplit("@", 1)[0]

    calendar = icalendar.Calendar.from_ical(text)
    events = list(calendar.walk("VEVENT"))
    if len(events) != len(expected):
        problems.append(f"icalendar: {len(events)} events, the plan has {len(expected)}")
    for event in events:
        uid = domain_free(str(event["UID"]))
        notification = expected.get(uid)
        if notification is None:
            problems.append(f"icalendar: unexpected UID {uid}")
            continue
        start = event.decoded("DTSTART")
        if start.tzinfo is None:
            problems.append(f"icalendar: {uid} has a floating time")
        elif utc(start) != utc(parse_instant(notification["fireAt"])):
            problems.append(f"icalendar: {uid} starts {start.isoformat()}, the plan says {notification['fireAt']}")
        if str(event["SUMMARY"]) != notification["title"]:
            problems.append(f"icalendar: {uid} SUMMARY {str(event['SUMMARY'])!r} != {notification['title']!r}")
        body = str(event.get("DESCRIPTION", ""))
        if body != notification["body"].replace("\r\n", "\n").replace("\r", "\n"):
            problems.append(f"icalendar: {uid} DESCRIPTION {body!r} != {notification['body']!r}")

    strict = IcsCalendarStream.calendar_from_ics(text)
    if len(strict.events) != len(expected):
        problems.append(f"ical: {len(strict.events)} events, the plan has {len(expected)}")
    for event in strict.events:
        uid = domain_free(event.uid)
        notification = expected.get(uid)
        if notification is None:
            problems.append(f"ical: unexpected UID {uid}")
            continue
        if utc(event.dtstart) != utc(parse_instant(notification["fireAt"])):
            problems.append(f"ical: {uid} starts {event.dtstart.isoformat()}, the plan says {notification['fireAt']}")
        if event.summary != notification["title"]:
            problems.append(f"ical: {uid} summary {event.summary!r} != {notification['title']!r}")

    wanted = sorted((n["id"], utc(parse_instant(n["fireAt"]))) for n in expected.values())
    readers = [("vobject", vobject_instances(text, None, None)), ("sabre/vobject", sabre_instances(by_name))]
    span = window("expanded", plan)
    if span:
        readers.append(("libical", libical_instances(LIBICAL, text, *span)))
        readers.append(("ical.js", icaljs_instances(ics_path, rename)))
    for reader, instances in readers:
        if instances is None:
            continue
        found = sorted((domain_free(str(uid)), utc(start)) for uid, start in instances)
        if found != wanted:
            problems.append(f"{reader}: {len(found)} instants differ from the plan's {len(wanted)}; "
                            f"first difference {next(((a, b) for a, b in zip(found, wanted) if a != b), None)}")
    return problems


def window(mode, plan):
    """The span the expanding readers are asked about: two days beyond the plan's
    notifications (expanded), or beyond its window (recurring); None for an expanded
    calendar without events."""
    margin = datetime.timedelta(days=2)
    if mode == "expanded":
        times = [utc(parse_instant(n["fireAt"])) for n in plan["notifications"]]
        return (min(times) - margin, max(times) + margin) if times else None
    return parse_instant(plan["now"]) - margin, parse_instant(plan["windowEnd"]) + margin


def libical_instances(reader, text, start, end):
    """(UID, start) of every instance libical expands between start and end."""
    if reader is None:
        return None
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".ics", encoding="utf-8", newline="") as file:
        file.write(text)
        file.flush()
        output = subprocess.run([reader, file.name, str(int(start.timestamp())), str(int(end.timestamp()))],
                                capture_output=True, text=True, check=True).stdout
    result = []
    for line in output.splitlines():
        uid, seconds = line.split("\t")
        result.append((uid, datetime.datetime.fromtimestamp(int(seconds), datetime.timezone.utc)))
    return result


def icaljs_instances(ics_path, rename):
    """(UID, start) of every instance ical.js expands in the calendar's window, when
    --icaljs was given: read before the other readers start (read_with_icaljs)."""
    if ICALJS is None:
        return None
    reading = ICALJS_READINGS[(ics_path, rename)]
    if isinstance(reading, str):
        raise RuntimeError(f"ical.js: {reading}")
    return reading


def read_with_icaljs(entries):
    """ical.js's instances of every entry's calendar (as the other readers get it), by
    (ICS, renamed): one Node process reads them all, each in its window, since starting
    Node and loading ical.js takes longer than reading a calendar. A calendar ical.js
    fails on gets its message instead."""
    import tempfile
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "read_ics_icaljs.mjs")
    with tempfile.TemporaryDirectory() as folder:
        keys, listing, read_as = [], [], {}
        for mode, ics_path, plan_path, rename in entries:
            # A calendar is looked up by its path and renaming: listed twice, it must be
            # read in the same window both times, and is read once.
            key = (ics_path, rename)
            if key in read_as:
                if read_as[key] != (mode, plan_path):
                    raise SystemExit(f"{ics_path} is listed twice with another plan or style; ical.js reads it once")
                continue
            read_as[key] = (mode, plan_path)
            try:
                span = window(mode, json.load(open(plan_path, encoding="utf-8")))
                text = load(ics_path, rename)[1]
            except Exception:  # the file's own check meets the same failure first and reports it
                continue
            if span is None:
                continue
            path = f"{folder}/{len(keys)}.ics"
            with open(path, "w", encoding="utf-8", newline="") as file:
                file.write(text)
            keys.append(key)
            listing.append(f"{path}\t{int(span[0].timestamp())}\t{int(span[1].timestamp())}")
        with open(f"{folder}/list.txt", "w", encoding="utf-8") as file:
            file.write("\n".join(listing) + "\n")
        result = subprocess.run(["node", script, ICALJS, f"{folder}/list.txt"], capture_output=True, text=True)
    output = result.stdout
    if result.returncode != 0:
        # Each calendar's lines are written as it is read: the last one begun is where it ended.
        begun = [line for line in output.split("\n") if line.startswith("#\t")]
        where = f" while reading {keys[int(begun[-1].split(chr(9))[1])][0]}" if begun else ""
        raise SystemExit(f"ical.js's reader ended with status {result.returncode}{where}: {result.stderr}")
    readings = {}
    current = None
    for line in output.split("\n"):
        if not line:
            continue
        mark, rest = line.split("\t", 1)
        if mark == "#":
            current = keys[int(rest)]
            readings[current] = []
        elif mark == "!":
            readings[current] = rest
        else:
            readings[current].append((mark, datetime.datetime.fromtimestamp(int(rest), datetime.timezone.utc)))
    missing = [key for key in keys if key not in readings]
    if missing:
        raise SystemExit(f"ical.js: no reading of {missing[0][0]}")
    return readings


def sabre_instances(text):
    """(UID, start) of every event as sabre/vobject reads it, when --sabre was given."""
    if not SABRE:
        return None
    import tempfile
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "read_ics_sabre.php")
    with tempfile.NamedTemporaryFile("w", suffix=".ics", encoding="utf-8", newline="") as file:
        file.write(text)
        file.flush()
        output = subprocess.run(["php", script, file.name], capture_output=True, text=True, check=True).stdout
    return [(uid, datetime.datetime.fromtimestamp(int(seconds), datetime.timezone.utc))
            for uid, seconds in (line.split("\t") for line in output.splitlines())]


def vobject_instances(text, start, end):
    """(UID, start) of every instance vobject expands, between start and end when given."""
    result = []
    for calendar in vobject.readComponents(text):
        for event in calendar.contents.get("vevent", []):
            uid = event.uid.value
            rules = event.getrruleset(addRDate=True)
            if rules is None:
                moments = [event.dtstart.value]
            elif start is None:
                moments = list(rules)
            else:
                moments = rules.between(start, end, inc=True)
            result += [(uid, moment) for moment in moments]
    return result


def recurring(ics_path, plan, rename):
    problems = []
    raw, text, _ = load(ics_path, rename)
    check_physical_lines(raw, problems)
    now = parse_instant(plan["now"])
    end = parse_instant(plan["windowEnd"])
    # Single notifications become series instances named by reminder; snoozes are events
    # of their own, named by their ID.
    expected = sorted(
        (n["reminders"][0] if n["kind"] == "single" else n["id"], utc(parse_instant(n["fireAt"])))
        for n in plan["notifications"] if n["kind"] == "single" or is_standalone(n)
    )

    def key(uid):
        uid = str(uid).rsplit("@", 1)[0]
        if STANDALONE_UID.search(uid):
            return uid
        match = re.fullmatch(r"(.+)-\d{8}-\d{4}", uid) or re.fullmatch(r"(.+)-\d{4}", uid)
        return match.group(1)

    def compare(reader, found):
        found = sorted((key(uid), utc(start)) for uid, start in found if now < utc(start) <= end)
        if found != expected:
            missing = [f"{r} {t.isoformat()}" for r, t in expected if (r, t) not in found]
            extra = [f"{r} {t.isoformat()}" for r, t in found if (r, t) not in expected]
            problems.append(f"{reader}: expanded series differ from the plan: {len(found)} vs {len(expected)}; "
                            f"missing {missing[:5]}, extra {extra[:5]}")

    start, stop = window("recurring", plan)
    calendar = icalendar.Calendar.from_ical(text)
    compare("recurring-ical-events", [
        (occurrence["UID"], occurrence.decoded("DTSTART"))
        for occurrence in recurring_ical_events.of(calendar).between(start, stop)
    ])
    compare("vobject", vobject_instances(text, start, stop))
    libical = libical_instances(LIBICAL, text, start, stop)
    if libical is not None:
        compare("libical", libical)
    icaljs = icaljs_instances(ics_path, rename)
    if icaljs is not None:
        compare("ical.js", icaljs)
    return problems


LIBICAL = None
SABRE = False
ICALJS = None
ICALJS_READINGS = {}


def check(mode, ics_path, plan_path, rename):
    """The problems of one file, and how many notifications its plan has."""
    plan = json.load(open(plan_path, encoding="utf-8"))
    problems = expanded(ics_path, plan, rename) if mode == "expanded" else recurring(ics_path, plan, rename)
    return problems, len(plan["notifications"])


def check_entry(entry):
    mode, ics_path, plan_path, rename = entry
    try:
        problems, count = check(mode, ics_path, plan_path, rename)
    except BaseException as error:  # a reader that fails on a file (or exits) is a problem of that file
        problems, count = [f"{type(error).__name__}: {error}"], 0
    return [f"{ics_path} ({mode}{', renamed' if rename else ''}): {problem}" for problem in problems], count


def run_isolated(entries, workers=2):
    """check_entry for each entry, each in a process of its own forked from this one, two
    at a time, as a calendar program reads one import: icalendar and vobject keep the
    first zone they see under a TZID for the rest of a process, and files of other years
    would be read with it. This process has no other threads, so forking is safe (a
    multiprocessing pool forks beside its own threads, and a child can hang). Each child
    leaves its result in a file; one that dies reports how."""
    import tempfile
    results = [None] * len(entries)
    running = {}
    with tempfile.TemporaryDirectory() as folder:
        next_index = 0
        while next_index < len(entries) or running:
            while next_index < len(entries) and len(running) < workers:
                path = f"{folder}/{next_index}.json"
                pid = os.fork()
                if pid == 0:
                    try:
                        found, count = check_entry(entries[next_index])
                        with open(path, "w", encoding="utf-8") as output:
                            json.dump([found[:40], count], output)
                    finally:
                        os._exit(0)
                running[pid] = (next_index, path)
                next_index += 1
            pid, status = os.wait()
            index, path = running.pop(pid)
            if os.path.exists(path):
                found, count = json.load(open(path, encoding="utf-8"))
                results[index] = (found, count)
            else:
                results[index] = ([f"{entries[index][1]}: its reader process ended with status {status}"], 0)
    return results


def main():
    global LIBICAL, SABRE, ICALJS, ICALJS_READINGS
    SABRE = "--sabre" in sys.argv
    if "--icaljs" in sys.argv:
        ICALJS = sys.argv[sys.argv.index("--icaljs") + 1]
    if "--libical" in sys.argv:
        LIBICAL = sys.argv[sys.argv.index("--libical") + 1]
    if sys.argv[1] == "--manifest":
        entries = []
        for line in open(sys.argv[2], encoding="utf-8").read().splitlines():
            mode, ics_path, plan_path, rename = line.split("\t")
            entries.append((mode, ics_path, plan_path, rename == "1"))
        if ICALJS is not None:
            ICALJS_READINGS = read_with_icaljs(entries)
        results = run_isolated(entries)
        problems = [problem for found, _ in results for problem in found]
        checked = sum(count for _, count in results)
        for problem in problems[:60]:
            print(problem)
        print(f"{len(entries)} files, {checked} notifications checked, {len(problems)} problems")
        sys.exit(1 if problems else 0)
    mode, ics_path, plan_path = sys.argv[1:4]
    rename = "--rename" in sys.argv[4:]
    if ICALJS is not None:
        ICALJS_READINGS = read_with_icaljs([(mode, ics_path, plan_path, rename)])
    problems, count = check(mode, ics_path, plan_path, rename)
    for problem in problems[:40]:
        print(problem)
    print(f"{mode}: {count} notifications checked, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
