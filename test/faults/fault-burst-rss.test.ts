import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { modelCall, settlesTo, startFaultGateway, SURFACES, type FaultGateway } from './fault-kit.js';

/**
 * Resident memory accounting: a burst of 300 faulty calls (oversized bodies and events, garbage,
 * resets; both wire formats, JSON and SSE, 30 at a time) must leave the gateway's resident set
 * within 50 MB of where it was, and its descriptors where they were. The bound is generous (the
 * machine may be loaded), yet a per-call leak of a buffered body would pass it several times over.
 */
const FAULTS = [
  'garbage',
  `huge-body-${8 * 1024 * 1024}`,
  `huge-first-event-${8 * 1024 * 1024}`,
  'huge-event-1000000',
  'cut-stream-after-2',
];
const CALLS = 300;
const CONCURRENCY = 30;
const MB = 1024 * 1024;

describe('fault burst: resident memory and descriptors', () => {
  let gw: FaultGateway;
  before(async () => {
    gw = await startFaultGateway();
  });
  after(() => gw.close());

  async function burst(faulty: boolean): Promise<Record<number, number>> {
    const statuses: Record<number, number> = {};
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CALLS) {
          const i = next++;
          const fault = faulty ? (FAULTS[i % FAULTS.length] ?? '') : '';
          const r = await modelCall(gw, SURFACES[i % SURFACES.length] ?? 'openai', { stream: i % 2 === 0, fault });
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        }
      }),
    );
    return statuses;
  }

  async function settled(): Promise<{ rss: number; fds: number }> {
    await gw.renewPool();
    await gw.server.gc();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await gw.server.gc();
    return { rss: gw.server.rssBytes(), fds: gw.server.fdCount() };
  }

  it('300 faulty calls move resident memory by less than 50 MB; descriptors return', { timeout: 60_000 }, async () => {
    await burst(false); // warm-up at the same concurrency: JIT, pools, caches
    const base = await settled();
    const statuses = await burst(true);
    assert.equal(statuses[500], undefined, JSON.stringify(statuses));
    const end = await settled();
    const grown = end.rss - base.rss;
    assert.ok(grown < 50 * MB, `resident set grew by ${(grown / MB).toFixed(1)} MB`);
    const fds = await settlesTo(() => gw.server.fdCount(), base.fds + 4);
    assert.ok(fds <= base.fds + 4, `open descriptors ${fds}, before the burst ${base.fds}`);
    console.log(
      `rss before ${(base.rss / MB).toFixed(0)} MB, after ${(end.rss / MB).toFixed(0)} MB; ${JSON.stringify(statuses)}`,
    );
  });
});
