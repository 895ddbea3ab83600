import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getTestPgUrl } from '../harness/env.js';
import { testDatabase, type TestDialect } from '../support/server.js';
import { crashRounds } from './crash-ledger.js';

const ROUNDS = 1;

/**
 * SIGKILL right after the 200th delivered call, then restart: ≥ 99.9% of delivered calls charged,
 * none twice. One round: each server start is a process spawn, seconds on a loaded machine
 * (bench/crash-ledger.ts runs more rounds, each on the restart that replayed the previous one).
 * The flush interval is raised to 1 s so that the window the journal must cover (settled, not
 * yet written) is four times the default's: without the journal a round loses several calls
 * (bench/crash-ledger.ts prints both).
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
            { databaseUrl: db.url, journal: true, calls: 200, concurrency: 16, flushMs: 1000 },
            ROUNDS,
          );
          for (const [i, r] of rounds.entries()) {
            const label = `${dialect} round ${i + 1}: ${JSON.stringify(r)}`;
            assert.ok(r.delivered >= 200, label);
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
