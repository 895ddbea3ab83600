// The meter under test with a memory ledger and a manual clock, and helpers its suites share.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMeter } from '../../src/domain/accounting/meter.js';
import type { MeterOptions } from '../../src/domain/accounting/types.js';
import { isGatewayError } from '../../src/errors/index.js';
import { MemoryLedger } from './fixtures.js';
import { MutableClock } from '../support/clock.js';

export const HASH = 'a'.repeat(64);
export const OTHER = 'b'.repeat(64);

export function meterWith(options: Partial<MeterOptions> & { ledger?: MemoryLedger; clock?: MutableClock } = {}) {
  const ledger = options.ledger ?? new MemoryLedger();
  const clock = options.clock ?? new MutableClock('2026-11-21T12:00:00.000Z');
  const logs: string[] = [];
  const meter = createMeter({ flushIntervalMs: 60_000, log: (m) => logs.push(m), ...options, ledger, clock });
  return { meter, ledger, clock, logs };
}

export async function rejects402(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (e: unknown) => isGatewayError(e) && e.status === 402);
}

export async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(5);
  }
}
