// TypeScript declarations of remindc's JSON: the plan (plan.schema.json), the diff
// (diff.schema.json), diagnostics, and the service's jobs and results
// (remindc-service.openapi.json). Instants are RFC 3339 strings with an offset
// (`2026-11-23T09:20:00+01:00`); slots are local `YYYY-MM-DDTHH:MM`.

export type Instant = string;
export type LocalSlot = string;
export type InterruptionLevel = 'passive' | 'active' | 'timeSensitive' | 'critical';

/** A button of a notification category. */
export interface NotificationAction {
  id: string;
  title: string;
  destructive?: boolean;
  foreground?: boolean;
  /** 1–1440: pressing it snoozes the notification for this many minutes. */
  snoozeMinutes?: number;
}

/** One dated notification of a plan. */
export interface PlannedNotification {
  id: string;
  kind: 'single' | 'group' | 'followUp' | 'snooze';
  fireAt: Instant;
  /** Where quiet hours moved it from. */
  deferredFrom?: Instant;
  slot: LocalSlot;
  /** The zone of its slot, when it is not the plan's. */
  timeZone?: string;
  reminders: string[];
  group?: string;
  /** The notification a follow-up or snooze belongs to. */
  parent?: string;
  title: string;
  body: string;
  interruptionLevel: InterruptionLevel;
  category?: string;
  sound?: string;
  threadID?: string;
  userInfo?: Record<string, string>;
  /** Earlier notifications to withdraw once this one is delivered. */
  replaces?: string[];
  durationMinutes?: number;
  /** 0–2147483647, for platforms that want a number. */
  numericId: number;
  /** Changes whenever anything shown changes: compare it with what the device holds. */
  fingerprint?: string;
  sequence: number;
}

/** An occurrence the plan leaves out, and why. */
export interface SuppressedNotification {
  id: string;
  fireAt: Instant;
  reminders: string[];
  reason: 'activity' | 'done' | 'skip' | 'snoozed' | 'quietHours';
}

/** A plan: what `remindc compile` writes and `POST /v1/plan` answers. */
export interface Plan {
  formatVersion: 1;
  timeZone: string;
  tzdataVersion?: string;
  calendarName?: string;
  uidDomain?: string;
  configDigest?: string;
  now: Instant;
  windowEnd: Instant;
  pendingLimit: number;
  reservedSlots: number;
  coveredUntil: Instant;
  dropped: number;
  categories: Record<string, NotificationAction[]>;
  notifications: PlannedNotification[];
  suppressed: SuppressedNotification[];
  warnings: string[];
  seriesSequences?: Record<string, number>;
  reminderDigests?: Record<string, string>;
  reminderRevisions?: Record<string, number>;
}

/** A value before and after a change. */
export interface Change<Value = unknown> {
  before: Value;
  after: Value;
}

/** What changed for one reminder, counted in notifications. */
export interface ReminderSummary {
  id: string;
  title?: string;
  add: number;
  cancel: number;
  update: number;
  /** Added notifications past the old plan's `coveredUntil`. */
  newInWindow: number;
  /** Whether the new plan's config lost the reminder or gained it. */
  config?: 'removed' | 'added';
  times?: Change<string[]>;
  weekdays?: Change<string[]>;
  changes?: Record<string, Change>;
  varied?: string[];
}

/** The difference between two plans: what `remindc diff --format json` writes. */
export interface PlanDiff {
  formatVersion: 1;
  add: PlannedNotification[];
  /** IDs of notifications only the old plan has, still to fire. */
  cancel: string[];
  update: { id: string; changes: Record<string, Change>; notification: PlannedNotification }[];
  /** IDs of notifications only the old plan has, already fired. */
  expired: string[];
  unchanged: number;
  reminders?: ReminderSummary[];
  plan?: Record<string, Change>;
}

/** One diagnostic: a place in a file (`file`, `line`, `column`) or a key path. */
export interface Diagnostic {
  severity: 'error' | 'warning' | 'note';
  id: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  keyPath?: string;
  /** Further places the diagnostic points at, each a diagnostic of severity `note`. */
  notes?: Diagnostic[];
}

/** An event: an activity logged, or an action on an occurrence. */
export type ReminderEvent =
  | { activity: string; at: Instant }
  | { occurrence: string; action: 'done' | 'skip' }
  | { occurrence: string; action: 'snooze'; at: Instant; minutes?: number };

/**
 * A request of a device: an ID and, for remindc's, the fingerprint it was scheduled with;
 * as expo-notifications returns it, or in remindc's own form.
 */
export type PendingNotification =
  | { identifier: string; content?: { data?: { fingerprint?: string } & Record<string, unknown> } }
  | { id: string; fingerprint?: string };

/** The body of `POST /v1/plan` and `POST /v1/ics`, and a line of `remindc batch`. */
export interface Job {
  id?: string;
  config: object | string;
  events?: { events: ReminderEvent[] } | string;
  now: string;
  timeZone?: string;
  previous?: Plan;
  pending?: PendingNotification[];
}

/** What to remove from the device, then what to add: `remindc reconcile --format json`. */
export interface Reconciliation {
  formatVersion: 1;
  remove: string[];
  add: PlannedNotification[];
  unchanged: number;
  foreign: string[];
  notes: string[];
}

/** The answer to a job. */
export interface PlanResult {
  id?: string;
  ok: boolean;
  plan?: Plan;
  diff?: PlanDiff;
  reconciliation?: Reconciliation;
  diagnostics: Diagnostic[];
}
