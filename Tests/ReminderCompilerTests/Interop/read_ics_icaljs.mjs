// Prints the instances that ical.js, the parser and expander of Thunderbird's calendar,
// finds in each calendar of a list, between two instants (Unix seconds, inclusive):
//   node read_ics_icaljs.mjs ICAL_MODULE LIST
// LIST holds one "FILE.ics<TAB>START<TAB>END" line per calendar. For the n-th (from 0),
// the output has a line "#<TAB>n", then "UID<TAB>seconds" for each instance, or
// "!<TAB>message" when ical.js fails on that calendar. ICAL_MODULE is ical.js as an ES
// module (Thunderbird ships it as Ical.sys.mjs). One process reads them all, since
// starting Node and loading the module costs more than reading a calendar.
// Each calendar's own VTIMEZONEs are registered first, as Thunderbird does on import, so
// that a TZID no library knows is still resolved from the file; the register is emptied
// between calendars, so a calendar never sees another's zones under the same name.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, listFile] = process.argv.slice(2);
const ICAL = (await import(pathToFileURL(modulePath).href)).default;

function instances(file, start, end) {
  const calendar = new ICAL.Component(ICAL.parse(readFileSync(file, "utf8")));
  ICAL.TimezoneService.reset();
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
  return lines;
}

// Each calendar's mark is written before it is read and its lines as soon as it is read
// (process.stdout writes to a pipe synchronously on Linux): if Node itself fails, the
// output's last mark names the calendar it was on.
const entries = readFileSync(listFile, "utf8").split("\n").filter((line) => line.length > 0);
for (const [index, entry] of entries.entries()) {
  const [file, startText, endText] = entry.split("\t");
  process.stdout.write(`#\t${index}\n`);
  let block;
  try {
    block = instances(file, Number(startText), Number(endText));
  } catch (error) {
    block = [`!\t${String(error).replace(/\s+/g, " ")}`];
  }
  // In parts: one string of a long calendar's lines could pass what a string may hold.
  for (let start = 0; start < block.length; start += 10000) {
    process.stdout.write(block.slice(start, start + 10000).join("\n") + "\n");
  }
}
