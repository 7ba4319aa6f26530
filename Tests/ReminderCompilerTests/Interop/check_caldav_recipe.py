"""Runs the CalDAV recipe of the Calendars article, as written, against Radicale.

    check_caldav_recipe.py ARTICLE FIRST_ICS UPDATED_ICS

Takes the article's two shell blocks of "CalDAV servers" (split and upload; remove what
the new file lacks), starts Radicale on 127.0.0.1 without authentication, makes a
collection, and runs: the upload of FIRST_ICS, then the upload of UPDATED_ICS and the
removal. After each step the collection must hold exactly one resource per VEVENT of the
file, named after its UID, with that VEVENT's SEQUENCE. Prints problems and exits 1 when
there are any.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_caldav import Radicale, Server  # noqa: E402

article, first_ics, updated_ics = sys.argv[1:4]
text = open(article, encoding="utf-8").read()
section = text[text.index("### CalDAV servers"):]
section = section[:section.index("\n## ")] if "\n## " in section else section
blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
upload = next(block for block in blocks if "awk" in block)
remove = next(block for block in blocks if "PROPFIND" in block)


def unfolded(path):
    return re.sub(r"\r\n[ \t]", "", open(path, encoding="utf-8", newline="").read())


def events(path):
    """UID -> SEQUENCE of each VEVENT of a calendar file."""
    found = {}
    for event in re.findall(r"BEGIN:VEVENT\r\n(.*?)END:VEVENT", unfolded(path), re.DOTALL):
        uid = re.search(r"^UID:(.*)\r$", event, re.MULTILINE).group(1)
        found[uid] = re.search(r"^SEQUENCE:(\d+)\r$", event, re.MULTILINE).group(1)
    return found


def held(client, collection):
    """Resource name -> (UID, SEQUENCE) of each resource of the collection."""
    listing = client.request("PROPFIND", collection, None, {"Depth": "1"})
    names = [href.rsplit("/", 1)[-1] for href in re.findall(r"<[^>]*href>([^<]*)<", listing)]
    result = {}
    for name in names:
        if not name.endswith(".ics"):
            continue
        body = re.sub(r"\r?\n[ \t]", "", client.request("GET", collection + name))
        uid = re.search(r"^UID:(.*?)\r?$", body, re.MULTILINE).group(1)
        sequence = re.search(r"^SEQUENCE:(\d+)\r?$", body, re.MULTILINE).group(1)
        result[name] = (uid, sequence)
    return result


def expect(client, collection, path, step):
    wanted = events(path)
    found = held(client, collection)
    problems = []
    if len(found) != len(wanted):
        problems.append(f"{step}: {len(found)} resources, the file has {len(wanted)} events")
    for name, (uid, sequence) in found.items():
        if uid not in wanted:
            problems.append(f"{step}: {name} holds {uid}, which the file does not have")
        elif wanted[uid] != sequence:
            problems.append(f"{step}: {uid} has SEQUENCE {sequence}, the file {wanted[uid]}")
        elif name != uid.replace("@", "%40") + ".ics" and name != uid + ".ics":
            problems.append(f"{step}: {uid} is stored as {name}")
    print(f"{step}: {len(found)} resources")
    return problems


def run(block, folder, base):
    # The article's blocks run in one shell, the first setting BASE: each here gets it.
    script = f"BASE={base}\n" + re.sub(r"^BASE=.*$", "", block, flags=re.MULTILINE)
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=folder, capture_output=True, text=True,
                            env={**os.environ, "CALDAV_USER": "remindc:remindc"})
    if result.returncode != 0:
        raise SystemExit(f"FAIL the recipe's commands exited {result.returncode}: {result.stderr[-2000:]}")


problems = []
with Radicale() as radicale, tempfile.TemporaryDirectory() as folder:
    collection = "/remindc/reminders/"
    radicale.client.request("MKCALENDAR", collection)
    base = f"http://127.0.0.1:{radicale.port}{collection}"
    # The commands open connections of their own: this one is closed meanwhile, so that
    # Radicale never waits on it.
    radicale.client.close()
    shutil.copy(first_ics, os.path.join(folder, "reminders.ics"))
    run(upload, folder, base)
    radicale.client = Server(radicale.port)
    problems += expect(radicale.client, collection, first_ics, "first upload")
    radicale.client.close()
    shutil.copy(updated_ics, os.path.join(folder, "reminders.ics"))
    run(upload, folder, base)
    run(remove, folder, base)
    radicale.client = Server(radicale.port)
    problems += expect(radicale.client, collection, updated_ics, "update and removal")
for problem in problems[:40]:
    print(problem)
print("ok" if not problems else f"FAIL {len(problems)} problems")
sys.exit(1 if problems else 0)
