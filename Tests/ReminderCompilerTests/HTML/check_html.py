"""Checks the DOM that headless Chromium built from a remindc HTML page against the plan.

    check_html.py agenda DOM PLAN PNG      the agenda page of PLAN (a plan JSON)
    check_html.py diff DOM DIFF PNG        the diff page of DIFF (a diff JSON)

The DOM is Chromium's --dump-dom output; the PNG its screenshot. Prints problems and exits
1 when there are any.
"""
import datetime
import html.parser
import json
import struct
import sys
import zlib


class Blocks(html.parser.HTMLParser):
    """Elements with a data-id, the coverage lines, and the text inside each block."""

    def __init__(self):
        super().__init__()
        self.blocks = []
        self.coverage = []
        self.scripts = 0
        self.external = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script":
            self.scripts += 1
        for name in ("src", "href"):
            value = attributes.get(name, "")
            if value and not value.startswith("#"):
                self.external.append(value)
        if "data-id" in attributes:
            self.blocks.append({"attributes": attributes, "text": ""})
            self.stack.append(len(self.blocks) - 1)
        elif self.stack and tag not in ("br", "meta", "img", "input"):
            self.stack.append(None)
        if attributes.get("class") == "coverage":
            self.coverage.append(attributes)

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for index in self.stack:
            if index is not None:
                self.blocks[index]["text"] += data


def local(instant):
    return datetime.datetime.fromisoformat(instant)


def png_problems(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return ["the screenshot is not a PNG"]
    width, height = struct.unpack(">II", data[16:24])
    if width < 800 or height < 600:
        return [f"the screenshot is {width}×{height}"]
    position, compressed = 8, b""
    while position < len(data):
        length = struct.unpack(">I", data[position:position + 4])[0]
        kind = data[position + 4:position + 8]
        if kind == b"IDAT":
            compressed += data[position + 8:position + 8 + length]
        position += 12 + length
    pixels = zlib.decompress(compressed)
    # A blank page is one colour: its rows repeat a handful of byte values.
    if len(set(pixels[::7])) < 16:
        return ["the screenshot is blank"]
    return []


def check_agenda(parser, plan):
    problems = []
    planned = [block for block in parser.blocks if block["attributes"].get("data-status") == "planned"]
    ids = {block["attributes"]["data-id"] for block in parser.blocks}
    by_id = {}
    for block in planned:
        by_id.setdefault(block["attributes"]["data-id"], []).append(block)
    for notification in plan["notifications"]:
        found = by_id.get(notification["id"], [])
        if len(found) != 1:
            problems.append(f"{notification['id']} appears {len(found)} times")
            continue
        attributes = found[0]["attributes"]
        fire = local(notification["fireAt"])
        cell = (fire.date().isoformat(), f"{fire.hour:02d}")
        if (attributes.get("data-date"), attributes.get("data-time", "")[:2]) != cell:
            problems.append(f"{notification['id']} is at {attributes.get('data-date')} {attributes.get('data-time')}, not {cell}")
        if notification["title"] not in " ".join(found[0]["text"].split()) and notification["title"].strip():
            problems.append(f"{notification['id']} lacks its title {notification['title']!r}")
        # Linked to its parent when the parent is on the page (a snooze of yesterday's is not).
        parent = notification.get("parent")
        if parent and parent in ids and attributes.get("data-parent") != parent:
            problems.append(f"{notification['id']} is not linked to its parent {parent}")
    if len(planned) != len(plan["notifications"]):
        problems.append(f"{len(planned)} planned blocks for {len(plan['notifications'])} notifications")
    for entry in plan["suppressed"]:
        if not any(block["attributes"]["data-id"] == entry["id"] or entry["id"] == block["attributes"]["data-id"]
                   for block in parser.blocks):
            problems.append(f"suppressed {entry['id']} is missing")
    if plan["dropped"] > 0:
        covered = local(plan["coveredUntil"])
        dates = [line.get("data-date") for line in parser.coverage]
        if dates != [covered.date().isoformat()]:
            problems.append(f"coverage lines on {dates}, expected one on {covered.date()}")
    elif parser.coverage:
        problems.append("a coverage line without a budget cut")
    return problems


def check_diff(parser, diff):
    problems = []
    changes = {}
    for block in parser.blocks:
        changes.setdefault(block["attributes"].get("data-change"), []).append(block["attributes"]["data-id"])
    expected = {
        "add": [notification["id"] for notification in diff["add"]],
        "cancel": list(diff["cancel"]),
        "update": [update["id"] for update in diff["update"]],
    }
    for name, ids in expected.items():
        if sorted(changes.get(name, [])) != sorted(ids):
            problems.append(f"{name}: page has {sorted(changes.get(name, []))}, diff has {sorted(ids)}")
    labels = {"add": "+ added", "cancel": "− cancelled", "update": "~ updated"}
    for block in parser.blocks:
        label = labels.get(block["attributes"].get("data-change"))
        if label and label not in block["text"]:
            problems.append(f"{block['attributes']['data-id']} lacks the label {label!r}")
    return problems


def main():
    mode, dom_path, data_path, png_path = sys.argv[1:5]
    parser = Blocks()
    parser.feed(open(dom_path, encoding="utf-8").read())
    data = json.load(open(data_path, encoding="utf-8"))
    problems = check_agenda(parser, data) if mode == "agenda" else check_diff(parser, data)
    if parser.scripts:
        problems.append("the page has scripts")
    if parser.external:
        problems.append(f"the page refers outside itself: {parser.external[:3]}")
    problems += png_problems(png_path)
    for problem in problems:
        print(problem)
    print(f"{mode}: {len(parser.blocks)} blocks, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
