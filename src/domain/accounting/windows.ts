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

export function windowsAt(now: Date): WindowSet {
  return { lifetime: LIFETIME, day: dayWindow(now), week: weekWindow(now), month: monthWindow(now) };
}

export const windowList = (set: WindowSet): string[] => [set.lifetime, set.day, set.week, set.month];

/** The window a key's limit is checked in: its `limit_reset` window, lifetime when it never resets. */
export function limitWindow(reset: LimitReset | null, now: Date): string {
  switch (reset) {
    case 'daily':
      return dayWindow(now);
    case 'weekly':
      return weekWindow(now);
    case 'monthly':
      return monthWindow(now);
    default:
      return LIFETIME;
  }
}
