import type { LimitReset } from './types.js';

/** What a key has spent, in USD, lifetime and in the current UTC day, ISO week and month. */
export interface KeyUsage {
  usage: number;
  usageDaily: number;
  usageWeekly: number;
  usageMonthly: number;
  byokUsage: number;
  byokUsageDaily: number;
  byokUsageWeekly: number;
  byokUsageMonthly: number;
}

export const ZERO_USAGE: KeyUsage = Object.freeze({
  usage: 0,
  usageDaily: 0,
  usageWeekly: 0,
  usageMonthly: 0,
  byokUsage: 0,
  byokUsageDaily: 0,
  byokUsageWeekly: 0,
  byokUsageMonthly: 0,
});

/** Reads usage for keys; metering provides the real one, the foundation a zero one. */
export interface KeyUsageReader {
  read(hashes: string[], now: Date): Promise<Map<string, KeyUsage>>;
}

/** Spend that counts against the key's limit in its current reset window. */
export function spentInWindow(usage: KeyUsage, reset: LimitReset | null, includeByok: boolean): number {
  const pick = (total: number, daily: number, weekly: number, monthly: number): number => {
    switch (reset) {
      case 'daily':
        return daily;
      case 'weekly':
        return weekly;
      case 'monthly':
        return monthly;
      default:
        return total;
    }
  };
  const own = pick(usage.usage, usage.usageDaily, usage.usageWeekly, usage.usageMonthly);
  const byok = pick(usage.byokUsage, usage.byokUsageDaily, usage.byokUsageWeekly, usage.byokUsageMonthly);
  return includeByok ? own + byok : own;
}

export function limitRemaining(
  limit: number | null,
  usage: KeyUsage,
  reset: LimitReset | null,
  includeByok: boolean,
): number | null {
  if (limit === null) return null;
  return Math.max(0, limit - spentInWindow(usage, reset, includeByok));
}
