import type { LimitReset } from '../keys/types.js';

/**
 * Spend windows, named by their UTC start so that a window rolls over by itself when the clock
 * passes midnight / Monday 00:00 / the 1st (no cron): 'lifetime', 'day:2026-11-21',
 * 'week:2026-11-16' (the Monday), 'month:2026-11'.
 */
export const LIFETIME = 'lifetime';

const pad = (n: number): string => String(n).padStart(2, '0');
const ymd = (d: Date): string => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

export function dayWindow(now: Date): string {
  return `day:${ymd(now)}`;
}

/** ISO week: Monday to Sunday, UTC. */
export function weekWindow(now: Date): string {
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysSinceMonday));
  return `week:${ymd(monday)}`;
}

export function monthWindow(now: Date): string {
  return `month:${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}`;
}

export interface WindowSet {
  lifetime: string;
  day: string;
  week: string;
  month: string;
}

const DAY_MS = 86_400_000;
/** The windows of the UTC day last asked for (every window changes only at a UTC midnight). */
let cached: { day: number; set: WindowSet; list: readonly string[] } | null = null;

function cachedWindows(now: Date): { set: WindowSet; list: readonly string[] } {
  const day = Math.floor(now.getTime() / DAY_MS);
  if (cached === null || cached.day !== day) {
    const set: WindowSet = Object.freeze({
      lifetime: LIFETIME,
      day: dayWindow(now),
      week: weekWindow(now),
      month: monthWindow(now),
    });
    cached = { day, set, list: Object.freeze([set.lifetime, set.day, set.week, set.month]) };
  }
  return cached;
}

/** The same (frozen) object for every call within one UTC day: no strings are built per call. */
export function windowsAt(now: Date): WindowSet {
  return cachedWindows(now).set;
}

export const windowList = (set: WindowSet): string[] => [set.lifetime, set.day, set.week, set.month];

/** `windowList(windowsAt(now))`, shared and frozen. */
export function windowListAt(now: Date): readonly string[] {
  return cachedWindows(now).list;
}

/** The window a key's limit is checked in: its `limit_reset` window, lifetime when it never resets. */
export function limitWindow(reset: LimitReset | null, now: Date): string {
  switch (reset) {
    case 'daily':
      return windowsAt(now).day;
    case 'weekly':
      return windowsAt(now).week;
    case 'monthly':
      return windowsAt(now).month;
    default:
      return LIFETIME;
  }
}
