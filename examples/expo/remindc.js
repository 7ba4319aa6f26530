// remindc.js: plans through `remindc serve` and keeps expo-notifications in step with
// each plan. The platform's pieces (expo-notifications, a key-value store, the clock)
// are passed in, so that the same code runs in the app (App.js) and under Node in the
// project's tests. The shapes of plans, diffs and diagnostics are in
// schema/remindc.d.ts.

const PLAN_KEY = 'remindc.plan';
const EVENTS_KEY = 'remindc.events';

/** The config's actions that are events; snooze actions are told by their `snoozeMinutes`. */
const ACTION_EVENTS = { take: 'done', skip: 'skip' };

/** An answer without a plan; `diagnostics` says why (empty when the body was not remindc's). */
export class PlanServiceError extends Error {
  constructor(status, diagnostics) {
    const errors = diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
    super(errors.join('\n') || `remindc service answered ${status}`);
    this.status = status;
    this.diagnostics = diagnostics;
  }
}

/** `file:line:column: severity: message [id]`, or the key path for a value built in code. */
export function formatDiagnostic(d) {
  const where = d.file !== undefined ? `${d.file}:${d.line ?? 0}:${d.column ?? 0}` : d.keyPath;
  return `${where}: ${d.severity}: ${d.message} [${d.id}]`;
}

/**
 * The reminders of one app: `replan` asks the service for a plan and brings the
 * device in line with it; `logActivity` and `onResponse` record events and plan again.
 *
 * - `serviceURL`: where `remindc serve` answers.
 * - `notifications`: the `expo-notifications` module (or anything with its functions).
 * - `storage`: `getItem` and `setItem` of strings, such as AsyncStorage.
 * - `config`: the config object (the keys of a config file).
 * - `clock`: the current instant as a `Date`; `timeZone`: the device's zone.
 * - `warn`: where warnings of a plan go.
 */
export function createReminders({ serviceURL, notifications, storage, config, clock = () => new Date(), timeZone, warn = console.warn }) {
  async function load(key) {
    const text = await storage.getItem(key);
    return text === null || text === undefined ? undefined : JSON.parse(text);
  }
  const save = (key, value) => storage.setItem(key, JSON.stringify(value));

  // One task at a time: a response that arrives during a re-plan waits for it, and no
  // event is lost between reading the log and writing it.
  let tail = Promise.resolve();
  function serially(task) {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  }

  async function fetchPlan(job, timeoutMs = 20_000) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetch(`${serviceURL}/v1/plan`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(job), signal: controller.signal,
      });
      // A proxy in front of the service may answer with a page that is not JSON.
      const result = await response.json().catch(() => undefined);
      if (response.status !== 200 || result?.ok !== true || result.plan === undefined) {
        throw new PlanServiceError(response.status, result?.diagnostics ?? []);
      }
      for (const d of result.diagnostics) warn(formatDiagnostic(d));
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  async function registerCategories(plan) {
    for (const [id, actions] of Object.entries(plan.categories)) {
      await notifications.setNotificationCategoryAsync(id, actions.map((a) => ({
        identifier: a.id,
        buttonTitle: a.title,
        options: { isDestructive: a.destructive === true, opensAppToForeground: a.foreground === true },
      })));
    }
  }

  /** Schedules one planned notification; false when its time passed while planning. */
  async function schedule(n) {
    const date = new Date(n.fireAt);
    if (date.getTime() <= clock().getTime()) return false;
    await notifications.scheduleNotificationAsync({
      identifier: n.id,
      content: {
        title: n.title,
        body: n.body,
        data: { ...n.userInfo, fingerprint: n.fingerprint },
        categoryIdentifier: n.category,
        sound: n.sound ?? true,
        interruptionLevel: n.interruptionLevel,
      },
      trigger: { type: notifications.SchedulableTriggerInputTypes.DATE, date },
    });
    return true;
  }

  /** Cancels what the new plan dropped or changed, then schedules what it added or changed. */
  async function applyDiff(diff) {
    let cancelled = 0, scheduled = 0;
    for (const id of [...diff.cancel, ...diff.update.map((u) => u.id)]) {
      await notifications.cancelScheduledNotificationAsync(id);
      cancelled += 1;
    }
    for (const n of [...diff.add, ...diff.update.map((u) => u.notification)]) {
      if (await schedule(n)) scheduled += 1;
    }
    return { cancelled, scheduled };
  }

  /** Cancels remindc's notifications the plan does not want as they are, then adds the missing ones. */
  async function reconcile(plan) {
    const wanted = new Map(plan.notifications.map((n) => [n.id, n.fingerprint]));
    const kept = new Set();
    let cancelled = 0, scheduled = 0;
    for (const request of await notifications.getAllScheduledNotificationsAsync()) {
      const stored = request.content.data?.fingerprint;
      if (typeof stored !== 'string' && !wanted.has(request.identifier)) continue; // the app's own
      if (wanted.get(request.identifier) === stored) {
        kept.add(request.identifier);
      } else {
        await notifications.cancelScheduledNotificationAsync(request.identifier);
        cancelled += 1;
      }
    }
    for (const n of plan.notifications) {
      if (!kept.has(n.id) && await schedule(n)) scheduled += 1;
    }
    return { cancelled, scheduled };
  }

  /** Plans again: the diff from the stored plan first, then reconciliation repairs the rest. */
  function replan() {
    return serially(async () => {
      const previous = await load(PLAN_KEY);
      const { plan, diff } = await fetchPlan({
        config,
        events: { events: (await load(EVENTS_KEY)) ?? [] },
        now: clock().toISOString(),
        timeZone,
        previous,
      });
      await registerCategories(plan);
      const applied = diff !== undefined ? await applyDiff(diff) : { cancelled: 0, scheduled: 0 };
      const repaired = await reconcile(plan);
      await save(PLAN_KEY, plan);
      return { plan, diff, applied, repaired };
    });
  }

  function record(event) {
    return serially(async () => save(EVENTS_KEY, [...((await load(EVENTS_KEY)) ?? []), event]));
  }

  /** Records an activity (a dose logged in the app) and plans again. */
  const logActivity = (activity, at = clock()) => record({ activity, at: at.toISOString() }).then(replan);

  /**
   * Records what a notification's action means (`snooze` with the action's minutes, or
   * `done` or `skip` by ACTION_EVENTS; a plain tap records nothing) and plans again.
   */
  async function onResponse(response) {
    const { notification, actionIdentifier } = response;
    const { identifier, content } = notification.request;
    const plan = await load(PLAN_KEY);
    const action = plan?.categories[content.categoryIdentifier ?? '']?.find((a) => a.id === actionIdentifier);
    if (action?.snoozeMinutes !== undefined) {
      await record({ occurrence: identifier, action: 'snooze', at: clock().toISOString(), minutes: action.snoozeMinutes });
    } else if (ACTION_EVENTS[actionIdentifier] !== undefined) {
      await record({ occurrence: identifier, action: ACTION_EVENTS[actionIdentifier] });
    }
    return replan();
  }

  return { replan, logActivity, onResponse, applyDiff, reconcile };
}
