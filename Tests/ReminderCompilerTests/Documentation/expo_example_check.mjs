// Runs the Expo example's logic (examples/expo/remindc.js) under Node against a running
// `remindc serve`, with a simulated notification centre in place of expo-notifications
// and a map in place of AsyncStorage. After each pass, what the centre holds must be
// exactly the plan the service returned, and a diff applied to the previous plan must
// leave reconciliation nothing to repair.
//
//     node expo_example_check.mjs PORT EXAMPLE_FOLDER
//
// Prints one line per pass and "ok" at the end; exits 1 at the first failure.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [port, folder] = process.argv.slice(2);
const { createReminders } = await import(pathToFileURL(join(folder, 'remindc.js')).href);
const config = JSON.parse(readFileSync(join(folder, 'reminders.config.json'), 'utf8'));

function fail(message) {
  console.log(`FAIL ${message}`);
  process.exit(1);
}

// What expo-notifications keeps: one request per identifier, replaced when scheduled
// again, and gone once its time has come (it was delivered).
const pending = new Map();
function delivered() {
  for (const [id, request] of pending) if (request.trigger.date <= now) pending.delete(id);
}
const categories = new Map();
const notifications = {
  SchedulableTriggerInputTypes: { DATE: 'date' },
  async setNotificationCategoryAsync(id, actions) { categories.set(id, actions); },
  async scheduleNotificationAsync(request) {
    if (!(request.trigger.date instanceof Date) || request.trigger.type !== 'date') fail(`trigger of ${request.identifier}`);
    pending.set(request.identifier, request);
    return request.identifier;
  },
  async cancelScheduledNotificationAsync(id) { pending.delete(id); },
  async getAllScheduledNotificationsAsync() {
    delivered();
    return [...pending.values()].map((r) => ({ identifier: r.identifier, content: r.content, trigger: r.trigger }));
  },
};
const stored = new Map();
const storage = {
  async getItem(key) { return stored.has(key) ? stored.get(key) : null; },
  async setItem(key, value) { stored.set(key, value); },
};
let now = new Date('2026-11-24T05:00:00Z');
const warnings = [];
const reminders = createReminders({
  serviceURL: `http://127.0.0.1:${port}`, notifications, storage, config, clock: () => now,
  timeZone: 'Europe/Berlin', warn: (line) => warnings.push(line),
});

/** The centre holds exactly the plan's notifications still to fire, with their fingerprints, and the app's own. */
function expectCentreHolds(plan, pass) {
  delivered();
  const wanted = plan.notifications.filter((n) => new Date(n.fireAt) > now);
  if (wanted.length === 0) fail(`${pass}: the plan has nothing to schedule`);
  const remindcRequests = [...pending.values()].filter((r) => r.identifier !== 'water-break');
  if (remindcRequests.length !== wanted.length) fail(`${pass}: ${remindcRequests.length} pending, the plan has ${wanted.length}`);
  for (const n of wanted) {
    const request = pending.get(n.id);
    if (request === undefined) fail(`${pass}: ${n.id} is not pending`);
    if (request.content.data.fingerprint !== n.fingerprint) fail(`${pass}: ${n.id} has an old fingerprint`);
    if (request.content.title !== n.title || request.trigger.date.getTime() !== new Date(n.fireAt).getTime()) fail(`${pass}: ${n.id} differs`);
  }
  if (!pending.has('water-break')) fail(`${pass}: the app's own notification was cancelled`);
  console.log(`${pass}: ${wanted.length} pending`);
}

// The app's own notification, which remindc must leave alone.
await notifications.scheduleNotificationAsync({
  identifier: 'water-break', content: { title: 'Drink water', data: {} }, trigger: { type: 'date', date: new Date('2026-12-01T10:00:00Z') },
});

// First launch: no stored plan, so no diff; reconciliation schedules the plan.
const first = await reminders.replan();
if (first.diff !== undefined || first.applied.scheduled !== 0) fail('first pass: a diff without a previous plan');
if (first.repaired.scheduled !== first.plan.notifications.length) fail('first pass: not everything scheduled');
if (!categories.has('dose') || categories.get('dose').length !== 3) fail('the categories were not registered');
expectCentreHolds(first.plan, 'first launch');

// A day later: the diff from the stored plan brings the centre in line on its own.
now = new Date('2026-11-25T05:00:00Z');
const second = await reminders.replan();
if (second.diff === undefined) fail('second pass: no diff');
if (second.repaired.cancelled !== 0 || second.repaired.scheduled !== 0) fail(`second pass: reconciliation repaired ${JSON.stringify(second.repaired)}`);
if (second.applied.scheduled === 0) fail('second pass: the diff added nothing for the new day');
expectCentreHolds(second.plan, 'a day later');

// The morning dose is snoozed from its notification: the plan gains the snooze.
now = new Date('2026-11-25T05:46:00Z');
const dose = second.plan.notifications.find((n) => n.id === 'thyroid-20261125-0645');
if (dose === undefined) fail('no morning dose on 25 November');
const snoozed = await reminders.onResponse({
  actionIdentifier: 'snooze',
  notification: { date: now.getTime(), request: { identifier: dose.id, content: { categoryIdentifier: 'dose' } } },
});
const snooze = snoozed.plan.notifications.find((n) => n.id === `${dose.id}-snooze`);
if (snooze === undefined || new Date(snooze.fireAt).getTime() !== now.getTime() + 10 * 60_000) fail('no snooze ten minutes later');
if (snoozed.repaired.cancelled !== 0 || snoozed.repaired.scheduled !== 0) fail(`snooze: reconciliation repaired ${JSON.stringify(snoozed.repaired)}`);
expectCentreHolds(snoozed.plan, 'after a snooze');

// The snooze took the morning's follow-up (a snooze removes what is pending of what it
// snoozes) and has a follow-up of its own. The dose logged in the app now silences the
// snooze's follow-up; the snooze the user asked for stays.
if (snoozed.plan.notifications.some((n) => n.id === `${dose.id}-followup`)) fail('the snooze left the follow-up');
if (!snoozed.plan.notifications.some((n) => n.id === `${dose.id}-snooze-followup`)) fail('the snooze has no follow-up');
now = new Date('2026-11-25T05:50:00Z');
const logged = await reminders.logActivity('thyroid');
const ids = new Set(logged.plan.notifications.map((n) => n.id));
if (ids.has(`${dose.id}-snooze-followup`)) fail("the snooze's follow-up was not silenced");
if (!ids.has(`${dose.id}-snooze`)) fail('the snooze went');
// The diff cancelled it, so reconciliation found nothing to repair.
if (!logged.diff?.cancel.includes(`${dose.id}-snooze-followup`)) fail(`the diff does not cancel the snooze's follow-up: ${JSON.stringify(logged.diff?.cancel)}`);
if (logged.applied.cancelled === 0) fail('the diff cancelled nothing');
if (logged.repaired.cancelled !== 0 || logged.repaired.scheduled !== 0) fail(`logging: reconciliation repaired ${JSON.stringify(logged.repaired)}`);
expectCentreHolds(logged.plan, 'after logging the dose');

// "Taken" on the snooze: the occurrence is done, and nothing of it is left.
const taken = await reminders.onResponse({
  actionIdentifier: 'take',
  notification: { date: now.getTime(), request: { identifier: `${dose.id}-snooze`, content: { categoryIdentifier: 'dose' } } },
});
const left = taken.plan.notifications.filter((n) => n.id.startsWith(dose.id)).map((n) => n.id);
if (left.length > 0) fail(`the dose taken still has notifications: ${left}`);
if (taken.repaired.cancelled !== 0 || taken.repaired.scheduled !== 0) fail(`"Taken": reconciliation repaired ${JSON.stringify(taken.repaired)}`);
expectCentreHolds(taken.plan, 'after "Taken"');

// Notifications turned off and on again: the centre holds nothing of remindc's, and the
// next pass puts the whole plan back by reconciliation.
for (const id of [...pending.keys()]) if (id !== 'water-break') pending.delete(id);
const restored = await reminders.replan();
if (restored.repaired.scheduled === 0) fail('nothing rescheduled');
expectCentreHolds(restored.plan, 'after the centre was emptied');

if (warnings.length > 0) fail(`warnings: ${warnings.join('; ')}`);
console.log('ok');
