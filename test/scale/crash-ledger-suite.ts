import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getTestPgUrl } from '../harness/env.js';
import { testDatabase, type TestDialect } from '../support/server.js';
import { crashRounds } from './crash-ledger.js';

const ROUNDS = 1;
const FLUSH_MS = 60_000;
/** Fewer than a batch (200): no batch fills up and is written before the kill either. */
const CALLS = 150;

/**
 * SIGKILL right after the 150th delivered call, then restart: ≥ 99.9% of delivered calls charged,
 * none twice. One round: each server start is a process spawn, seconds on a loaded machine
 * (bench/crash-ledger.ts runs more rounds, each on the restart that replayed the previous one).
 * The timed flush is pushed out of the round (60 s) and the round is shorter than a batch, so no
 * charge is written before the kill: every one must come back from the journal's replay, and
 * the same round without the journal loses them (the control below shows the test can fail).
 */
export function crashSuite(dialect: TestDialect): void {
  describe(
    `spend survives SIGKILL under load (${dialect})`,
    { skip: dialect === 'postgres' && getTestPgUrl() === null },
    () => {
      it(`${ROUNDS} round(s): ≥ 99.9% of delivered calls charged after restart, none twice`, async () => {
        const db = await testDatabase(dialect);
        try {
          const rounds = await crashRounds(
            { databaseUrl: db.url, journal: true, calls: CALLS, concurrency: 16, flushMs: FLUSH_MS },
            ROUNDS,
          );
          for (const [i, r] of rounds.entries()) {
            const label = `${dialect} round ${i + 1}: ${JSON.stringify(r)}`;
            assert.ok(r.delivered >= CALLS, label);
            assert.ok(r.recorded / r.delivered >= 0.999, label);
            assert.ok(r.chargedShare >= 0.999, label);
            // None twice: the key's counter is exactly the cost of its stored generation rows.
            assert.ok(Math.abs(r.counterUsd - r.storedCostUsd) < 1e-9, label);
            assert.ok(r.storedRows >= r.delivered, label);
          }
        } finally {
          await db.dispose();
        }
      });
    },
  );
}

/** The same round without the journal: calls settled since the last batch are lost. */
export function crashControl(dialect: TestDialect): void {
  describe(`without the ledger journal, SIGKILL loses charges (${dialect})`, () => {
    it('a round with the journal off charges less than 99.9%', async () => {
      const db = await testDatabase(dialect);
      try {
        const [round] = await crashRounds(
          { databaseUrl: db.url, journal: false, calls: CALLS, concurrency: 16, flushMs: FLUSH_MS },
          1,
        );
        assert.ok(round !== undefined && round.delivered >= CALLS, JSON.stringify(round));
        assert.ok(round.chargedShare < 0.999, JSON.stringify(round));
        assert.equal(round.replayed, 0);
      } finally {
        await db.dispose();
      }
    });
  });
}
