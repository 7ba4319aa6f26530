"""Writes seed inputs the repository holds no files for: pending lists (both shapes the
reader takes) from the golden plans, and batch job lines from the examples."""
import glob
import json
import os
import sys

reader, root, corpus = sys.argv[1:4]
plans = sorted(glob.glob(os.path.join(root, "Tests/ReminderCompilerTests/Golden/plans/*.json")))


def write(name, text):
    with open(os.path.join(corpus, name), "w", encoding="utf-8") as seed:
        seed.write(text)


if reader == "pending":
    for path in plans:
        with open(path, encoding="utf-8") as file:
            notifications = json.load(file).get("notifications", [])[:20]
        stem = os.path.basename(path)
        write(stem + ".plain", json.dumps([{"id": n["id"], "fingerprint": n["fingerprint"]} for n in notifications]))
        write(stem + ".expo", json.dumps([
            {"identifier": n["id"], "content": {"title": n.get("title"), "data": {"fingerprint": n["fingerprint"]}},
             "trigger": {"type": "date", "value": n["fireAt"]}} for n in notifications]))
elif reader == "batch":
    for path in sorted(glob.glob(os.path.join(root, "examples/*.plist"))):
        with open(path, encoding="utf-8") as file:
            config = file.read()
        job = {"id": os.path.basename(path), "config": config, "now": "2026-11-22T08:00:00Z"}
        events = path.replace(".plist", ".events.json")
        if os.path.exists(events):
            with open(events, encoding="utf-8") as file:
                job["events"] = json.load(file)
        write(os.path.basename(path) + ".job", json.dumps(job))
        job["now"] = "2026-11-22T08:00"
        job["timeZone"] = "Europe/Berlin"
        write(os.path.basename(path) + ".local.job", json.dumps(job))
