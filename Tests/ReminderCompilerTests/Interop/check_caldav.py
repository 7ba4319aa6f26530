"""Uploads remindc .ics files to a Radicale CalDAV server and compares what the server
expands with the plans.

    check_caldav.py ICS PLAN                  one recurring calendar
    check_caldav.py --manifest FILE           many: one "STYLE<TAB>ICS<TAB>PLAN" line each,
                                              optionally "<TAB>UPDATED_ICS<TAB>UPDATED_PLAN"

Starts Radicale on 127.0.0.1 (a free port, storage in a temporary folder, no
authentication) and gives each calendar a collection of its own. Each VEVENT is uploaded
as its own resource (CalDAV holds one UID per resource); the server is asked for the
window with a time-range REPORT that it expands, and each instance is compared with the
plan: for the recurring style its single notifications (by reminder) and snoozes, for the
expanded style every notification. Then the calendar is uploaded again (or its update,
compiled with --previous): an update by UID must replace, never duplicate, and the
updated series must expand to the updated plan. Stops the server. Prints problems and
exits 1 when there are any.
"""
import base64
import datetime
import http.client
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from xml.etree import ElementTree

import icalendar

# Snoozes and their follow-ups are events of their own in the recurring style, named by
# their IDs; every other instance belongs to a reminder's series.
STANDALONE_UID = re.compile(r"-snooze(-followup(-\d+)?)?$")


def is_standalone(notification):
    return notification["kind"] == "snooze" or notification.get("parent", "").endswith("-snooze")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def parse_instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(datetime.timezone.utc)


def renamed(text, name):
    """The calendar with its zones renamed (the plan's, then those of reminders with a zone
    of their own): only its own VTIMEZONEs can give the offsets. A reminder's zone keeps
    its own name in the new one, since an update may pin another zone in its place."""
    for index, zone in enumerate(re.findall(r"^TZID:(.*)\r$", text, re.MULTILINE)):
        new = name if index == 0 else f"{name}+{zone}"
        text = text.replace("TZID:" + zone + "\r\n", "TZID:" + new + "\r\n").replace("TZID=" + zone + ":", "TZID=" + new + ":")
    return re.sub(r"X-WR-TIMEZONE:[^\r]*\r\n", "", text)


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


def key(uid, style):
    uid = uid.rsplit("@", 1)[0]
    if style == "expanded" or STANDALONE_UID.search(uid):
        return uid
    match = re.fullmatch(r"(.+)-\d{8}-\d{4}", uid) or re.fullmatch(r"(.+)-\d{4}", uid)
    return match.group(1)


def expected_instances(plan, style):
    if style == "expanded":
        return sorted((n["id"], parse_instant(n["fireAt"])) for n in plan["notifications"])
    return sorted(
        (n["reminders"][0] if n["kind"] == "single" else n["id"], parse_instant(n["fireAt"]))
        for n in plan["notifications"] if n["kind"] == "single" or is_standalone(n)
    )


class Server:
    """Plain CalDAV requests on one kept-alive connection, as the user `remindc`."""

    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Authorization": "Basic " + base64.b64encode(b"remindc:remindc").decode()}

    def request(self, method, path, body=None, headers=None):
        self.connection.request(method, path, body=body.encode("utf-8") if body else None,
                                headers={**self.headers, **(headers or {})})
        response = self.connection.getresponse()
        data = response.read().decode("utf-8")
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]}")
        return data

    def close(self):
        self.connection.close()


def instant_text(moment):
    return moment.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def check_calendar(server, name, style, ics_path, plan_path, updated_ics=None, updated_plan=None):
    """Problems of one calendar uploaded (twice, or with its update) to its own collection."""
    problems = []
    collection = f"/remindc/{name}/"
    server.request("MKCALENDAR", collection)
    read = lambda path: open(path, encoding="utf-8", newline="").read()
    if updated_ics:
        # Radicale's parser (vobject) keeps the first VTIMEZONE it sees under a TZID for the
        # server's life: calendars of other years get a name of their own, as in the
        # renamed readings of check_ics.py.
        zone = f"Remindc-Test/{name}"
        uploads = list(resources(renamed(read(ics_path), zone)))
        second = list(resources(renamed(read(updated_ics), zone)))
    else:
        uploads = second = list(resources(read(ics_path)))
    # One resource per UID, named by it: the second upload of a UID replaces the first.
    for uid, body in uploads + second:
        server.request("PUT", collection + urllib.parse.quote(uid, safe="") + ".ics", body,
                       {"Content-Type": "text/calendar; charset=utf-8"})
    uids = {uid for uid, _ in uploads} | {uid for uid, _ in second}
    listing = server.request("PROPFIND", collection, '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:getetag/></D:prop></D:propfind>',
                             {"Depth": "1", "Content-Type": "application/xml"})
    held = len(ElementTree.fromstring(listing).findall("{DAV:}response")) - 1
    if held != len(uids):
        problems.append(f"Radicale holds {held} events after uploading {len(uids)} UIDs (updates must replace)")
    plan = json.load(open(updated_plan or plan_path, encoding="utf-8"))
    now, end = parse_instant(plan["now"]), parse_instant(plan["windowEnd"])
    expected = expected_instances(plan, style)
    # Series the update no longer has stay on the server: a calendar import does not delete.
    current = {uid for uid, _ in second}
    start_text = instant_text(now - datetime.timedelta(days=2))
    end_text = instant_text(end + datetime.timedelta(days=2))
    query = f"""<?xml version="1.0" encoding="utf-8"?>
<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:prop><C:calendar-data><C:expand start="{start_text}" end="{end_text}"/></C:calendar-data></D:prop>
  <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">
    <C:time-range start="{start_text}" end="{end_text}"/>
  </C:comp-filter></C:comp-filter></C:filter>
</C:calendar-query>"""
    report = server.request("REPORT", collection, query, {"Depth": "1", "Content-Type": "application/xml"})
    found = []
    for data in ElementTree.fromstring(report).iter("{urn:ietf:params:xml:ns:caldav}calendar-data"):
        for component in icalendar.Calendar.from_ical(data.text or "").walk("VEVENT"):
            if str(component["UID"]) not in current:
                continue
            start = component.decoded("DTSTART").astimezone(datetime.timezone.utc)
            if now < start <= end:
                found.append((key(str(component["UID"]), style), start))
    found.sort()
    if found != expected:
        missing = [f"{r} {t.isoformat()}" for r, t in expected if (r, t) not in found]
        extra = [f"{r} {t.isoformat()}" for r, t in found if (r, t) not in expected]
        problems.append(f"Radicale expands {len(found)} instances, the plan has {len(expected)}; "
                        f"missing {missing[:5]}, extra {extra[:5]}")
    return problems, len(expected)


class Radicale:
    """Radicale on 127.0.0.1 (a free port, storage in a temporary folder, no
    authentication), with `client` connected once it answers; stopped on leaving."""

    def __enter__(self):
        self.storage = tempfile.TemporaryDirectory()
        self.port = free_port()
        self.client = None
        self.server = subprocess.Popen(
            [sys.executable, "-m", "radicale", "--server-hosts", f"127.0.0.1:{self.port}", "--auth-type", "none",
             "--storage-filesystem-folder", self.storage.name, "--logging-level", "error"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                self.client = Server(self.port)
                self.client.request("PROPFIND", "/remindc/", None, {"Depth": "0"})
                return self
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
        self.__exit__(None, None, None)
        raise SystemExit("Radicale did not start")

    def __exit__(self, *_):
        # Open keep-alive connections hold Radicale's shutdown: close them, then stop it
        # (killed if it still runs after three seconds).
        if self.client is not None:
            self.client.close()
        self.server.terminate()
        try:
            self.server.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()
        self.storage.cleanup()


def main():
    if sys.argv[1] == "--manifest":
        entries = [line.split("\t") for line in open(sys.argv[2], encoding="utf-8").read().splitlines()]
    else:
        entries = [["recurring", sys.argv[1], sys.argv[2]]]
    problems = []
    checked = 0
    with Radicale() as radicale:
        for index, entry in enumerate(entries):
            found, count = check_calendar(radicale.client, f"calendar-{index}", *entry)
            problems += [f"{entry[1]} ({entry[0]}): {problem}" for problem in found]
            checked += count
    for problem in problems[:60]:
        print(problem)
    print(f"caldav: {len(entries)} calendars, {checked} instances checked, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
