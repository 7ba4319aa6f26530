"""Uploads a remindc recurring .ics to a Radicale CalDAV server and compares what the
server expands with the plan.

    check_caldav.py ICS PLAN

Starts Radicale on 127.0.0.1 (a free port, storage in a temporary folder, no
authentication), uploads each VEVENT as its own resource (CalDAV holds one UID per
resource), asks for the window with a time-range REPORT that the server expands, and
compares each instance with the plan's single notifications and snoozes. Then uploads the
same file again: an update by UID must replace, never duplicate. Stops the server.
Prints problems and exits 1 when there are any.
"""
import datetime
import json
import re
import socket
import subprocess
import sys
import tempfile
import time

import caldav
import icalendar


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def parse_instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(datetime.timezone.utc)


def resources(text):
    """One calendar per VEVENT, each with the file's VTIMEZONE."""
    calendar = icalendar.Calendar.from_ical(text)
    zones = list(calendar.walk("VTIMEZONE"))
    for event in calendar.walk("VEVENT"):
        single = icalendar.Calendar()
        single.add("prodid", "-//remindc//check_caldav//EN")
        single.add("version", "2.0")
        for zone in zones:
            single.add_component(zone)
        single.add_component(event)
        yield str(event["UID"]), single.to_ical().decode("utf-8")


def key(uid):
    uid = uid.rsplit("@", 1)[0]
    if uid.endswith("-snooze"):
        return uid
    match = re.fullmatch(r"(.+)-\d{8}-\d{4}", uid) or re.fullmatch(r"(.+)-\d{4}", uid)
    return match.group(1)


def main():
    ics_path, plan_path = sys.argv[1:3]
    plan = json.load(open(plan_path, encoding="utf-8"))
    now, end = parse_instant(plan["now"]), parse_instant(plan["windowEnd"])
    expected = sorted(
        (n["reminders"][0] if n["kind"] == "single" else n["id"], parse_instant(n["fireAt"]))
        for n in plan["notifications"] if n["kind"] in ("single", "snooze")
    )
    text = open(ics_path, encoding="utf-8").read()
    problems = []
    client = None
    with tempfile.TemporaryDirectory() as storage:
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "radicale", "--server-hosts", f"127.0.0.1:{port}", "--auth-type", "none",
             "--storage-filesystem-folder", storage, "--logging-level", "error"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            client = caldav.DAVClient(f"http://127.0.0.1:{port}/", username="remindc", password="remindc")
            for _ in range(100):
                try:
                    principal = client.principal()
                    break
                except Exception:
                    time.sleep(0.1)
            else:
                raise SystemExit("Radicale did not start")
            calendar = principal.make_calendar(name="remindc")
            uploads = list(resources(text))
            for _ in range(2):  # the second pass updates every UID in place
                for uid, body in uploads:
                    calendar.save_event(body)
            if len(calendar.events()) != len(uploads):
                problems.append(f"Radicale holds {len(calendar.events())} events after two uploads of {len(uploads)} UIDs")
            found = []
            for event in calendar.search(start=now - datetime.timedelta(days=2), end=end + datetime.timedelta(days=2),
                                         event=True, expand=True):
                for component in icalendar.Calendar.from_ical(event.data).walk("VEVENT"):
                    start = component.decoded("DTSTART").astimezone(datetime.timezone.utc)
                    if now < start <= end:
                        found.append((key(str(component["UID"])), start))
            found.sort()
            if found != expected:
                missing = [f"{r} {t.isoformat()}" for r, t in expected if (r, t) not in found]
                extra = [f"{r} {t.isoformat()}" for r, t in found if (r, t) not in expected]
                problems.append(f"Radicale expands {len(found)} instances, the plan has {len(expected)}; "
                                f"missing {missing[:5]}, extra {extra[:5]}")
        finally:
            # Open keep-alive connections hold Radicale's shutdown: close them, then stop it
            # (killed if it still runs after three seconds).
            if client is not None and hasattr(client, "close"):
                client.close()
            server.terminate()
            try:
                server.wait(timeout=3)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    for problem in problems:
        print(problem)
    print(f"caldav: {len(expected)} instances checked, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
