// Prints "UID<TAB>seconds" for each instance that ical.js, the parser and expander of
// Thunderbird's calendar, finds between two instants (Unix seconds, inclusive):
//   node read_ics_icaljs.mjs ICAL_MODULE FILE.ics START END
// ICAL_MODULE is ical.js as an ES module (Thunderbird ships it as Ical.sys.mjs). The
// calendar's own VTIMEZONEs are registered first, as Thunderbird does on import, so that
// a TZID no library knows is still resolved from the file.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, file, startText, endText] = process.argv.slice(2);
const ICAL = (await import(pathToFileURL(modulePath).href)).default;
const start = Number(startText);
const end = Number(endText);

const calendar = new ICAL.Component(ICAL.parse(readFileSync(file, "utf8")));
for (const zone of calendar.getAllSubcomponents("vtimezone")) {
  ICAL.TimezoneService.register(zone);
}
const lines = [];
for (const component of calendar.getAllSubcomponents("vevent")) {
  const event = new ICAL.Event(component);
  if (!event.isRecurring()) {
    lines.push(`${event.uid}\t${event.startDate.toUnixTime()}`);
    continue;
  }
  const iterator = event.iterator();
  for (let next = iterator.next(); next; next = iterator.next()) {
    const seconds = next.toUnixTime();
    if (seconds > end) break;
    if (seconds >= start) lines.push(`${event.uid}\t${seconds}`);
  }
}
process.stdout.write(lines.length ? lines.join("\n") + "\n" : "");
