"""Times W2 (a workload of the Performance article) with remindc and with the Python pipeline a user would otherwise
write: plistlib, dateutil.rrule and zoneinfo for the expansion, json for the plan, and the
icalendar library for the .ics. Prints both times (median of several runs) and the ratio.

    swift build -c release --static-swift-stdlib --scratch-path .build-static
    python3 Tests/Performance/compare_with_python.py --remindc .build-static/release/remindc

The workload files come from the benchmark (`remindc-benchmark --write-workloads DIR`),
so both sides read the same config.
"""
import argparse
import datetime
import json
import os
import plistlib
import statistics
import subprocess
import sys
import tempfile
import time
import zoneinfo

from dateutil import rrule
import icalendar

NOW = datetime.datetime(2026, 11, 22, 8, 0, tzinfo=datetime.timezone.utc)
WEEKDAYS = {"monday": rrule.MO, "tuesday": rrule.TU, "wednesday": rrule.WE, "thursday": rrule.TH,
            "friday": rrule.FR, "saturday": rrule.SA, "sunday": rrule.SU}


def numeric_id(text):
    value = 0x811C9DC5
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value & 0x7FFFFFFF


def times_of_day(schedule):
    if "times" in schedule:
        return sorted({tuple(map(int, t.split(":"))) for t in schedule["times"]})
    start_h, start_m = map(int, schedule["window"]["from"].split(":"))
    end_h, end_m = map(int, schedule["window"]["until"].split(":"))
    start, end = start_h * 60 + start_m, end_h * 60 + end_m
    count = schedule["timesPerDay"]
    minutes = [start] if count == 1 else [start + i * (end - start) // (count - 1) for i in range(count)]
    return sorted({(m // 60, m % 60) for m in minutes})


def python_pipeline(config_path, plan_path, ics_path):
    with open(config_path, "rb") as f:
        config = plistlib.load(f)
    zone = zoneinfo.ZoneInfo(config["timeZone"])
    window_end = NOW + datetime.timedelta(days=config["horizonDays"])
    first_local = NOW.astimezone(zone).replace(tzinfo=None) - datetime.timedelta(days=1)
    last_local = window_end.astimezone(zone).replace(tzinfo=None) + datetime.timedelta(days=1)
    units = {}
    for reminder in config["reminders"]:
        schedule = reminder["schedule"]
        day_start = first_local.replace(hour=0, minute=0, second=0, microsecond=0)
        if schedule["frequency"] == "daily":
            rule = rrule.rrule(rrule.DAILY, dtstart=day_start, until=last_local)
        elif schedule["frequency"] == "weekly":
            rule = rrule.rrule(rrule.DAILY, dtstart=day_start, until=last_local,
                               byweekday=[WEEKDAYS[d] for d in schedule["weekdays"]])
        else:
            rule = rrule.rrule(rrule.MONTHLY, dtstart=day_start, until=last_local, bymonthday=schedule["days"])
        for day in rule:
            for hour, minute in times_of_day(schedule):
                local = day.replace(hour=hour, minute=minute)
                fire = local.replace(tzinfo=zone)
                if not (NOW < fire <= window_end):
                    continue
                key = reminder.get("group", reminder["id"])
                units.setdefault((key, local), []).append(reminder)
    notifications = []
    for (key, local), members in units.items():
        members.sort(key=lambda r: r["id"])
        grouped = "group" in members[0]
        nid = f"{key}-{local:%Y%m%d-%H%M}"
        fire = local.replace(tzinfo=zone)
        title = f"{len(members)} reminders" if len(members) > 1 else members[0]["title"]
        body = ", ".join(m["title"] for m in members) if len(members) > 1 else members[0].get("body", "")
        notification = {"id": nid, "kind": "group" if grouped else "single", "fireAt": fire.isoformat(),
                        "slot": f"{local:%Y-%m-%dT%H:%M}", "reminders": [m["id"] for m in members]}
        if grouped:
            notification["group"] = key
        notification.update({"title": title, "body": body, "interruptionLevel": "active",
                             "numericId": numeric_id(nid), "sequence": 0})
        notifications.append((fire, nid, notification))
    notifications.sort(key=lambda item: (item[0], item[1]))
    plan = {"formatVersion": 1, "timeZone": config["timeZone"], "now": NOW.astimezone(zone).isoformat(),
            "windowEnd": window_end.astimezone(zone).isoformat(), "pendingLimit": 0, "reservedSlots": 0,
            "coveredUntil": window_end.astimezone(zone).isoformat(), "dropped": 0, "categories": {},
            "notifications": [n for _, _, n in notifications], "suppressed": [], "warnings": []}
    with open(plan_path, "w", encoding="utf-8") as f:
        json.dump(plan, f, indent=2, ensure_ascii=False)
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//python pipeline//EN")
    calendar.add("version", "2.0")
    calendar.add_missing_timezones() if hasattr(calendar, "add_missing_timezones") else None
    for fire, nid, notification in notifications:
        event = icalendar.Event()
        event.add("uid", f"{nid}@remindc.local")
        event.add("dtstamp", NOW)
        event.add("dtstart", fire)
        event.add("duration", datetime.timedelta(minutes=15))
        event.add("summary", notification["title"])
        event.add("description", notification["body"])
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("trigger", datetime.timedelta(0))
        alarm.add("description", notification["title"])
        event.add_component(alarm)
        calendar.add_component(event)
    if hasattr(calendar, "add_missing_timezones"):
        calendar.add_missing_timezones()
    with open(ics_path, "wb") as f:
        f.write(calendar.to_ical())
    return len(notifications)


def median_ms(action, runs):
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--remindc", default=".build/release/remindc")
    parser.add_argument("--benchmark", default=".build/release/remindc-benchmark")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([args.benchmark, "--write-workloads", folder], check=True)
        config = os.path.join(folder, "w2.plist")
        count = python_pipeline(config, os.path.join(folder, "py.json"), os.path.join(folder, "py.ics"))
        python = median_ms(lambda: python_pipeline(config, os.path.join(folder, "py.json"), os.path.join(folder, "py.ics")),
                           max(1, args.runs // 2))
        command = [args.remindc, "compile", config, "--now", "2026-11-22T08:00:00Z",
                   "-o", os.path.join(folder, "r.json"), "--ics", os.path.join(folder, "r.ics")]
        remindc = median_ms(lambda: subprocess.run(command, check=True, stderr=subprocess.DEVNULL), args.runs)
        with open(os.path.join(folder, "r.json"), encoding="utf-8") as f:
            remindc_count = len(json.load(f)["notifications"])
    print(f"W2 plan JSON + .ics: Python pipeline {python:.0f} ms ({count} notifications), "
          f"remindc {remindc:.0f} ms ({remindc_count} notifications, whole process); ratio {python / remindc:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
