/**
 * What held a server's event loop: every turn in which a 5 ms timer fired more than `LATE_MS`
 * late (the loop was busy or the thread was not running), and every garbage collection of 5 ms or
 * more, both in wall-clock milliseconds so that they line up with a client's stalls. Preload it
 * into a target of the paced-streams run:
 *   LOOP_BLOCKS_DIR=/tmp/blocks node dist/bench/gateway-bench/run.js --streams 512 \
 *     "--node-args=--import=$PWD/dist/bench/gateway-bench/loop-blocks.js"
 * The process writes LOOP_BLOCKS_DIR/<pid>.json on exit: `{ blocks: [{ at, ms }], gcs: [{ at,
 * ms, kind }] }`, `at` the wall time the block or collection started. Measurement only; nothing of
 * Switchyard loads it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';

const TICK_MS = 5;
const LATE_MS = 40;
const GC_MS = 5;

const dir = process.env.LOOP_BLOCKS_DIR;
const blocks: { at: number; ms: number }[] = [];
const gcs: { at: number; ms: number; kind: string }[] = [];

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

function gcKind(entry: PerformanceEntry): string {
  const detail = entry.detail as { kind?: number } | null;
  return KINDS[detail?.kind ?? -1] ?? 'other';
}

if (dir !== undefined) {
  const wall = (now: number) => Math.round(performance.timeOrigin + now);
  let expected = performance.now() + TICK_MS;
  setInterval(() => {
    const now = performance.now();
    const late = now - expected;
    if (late > LATE_MS) blocks.push({ at: wall(expected), ms: Math.round(late) });
    expected = now + TICK_MS;
  }, TICK_MS).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration >= GC_MS)
        gcs.push({ at: wall(entry.startTime), ms: Math.round(entry.duration * 10) / 10, kind: gcKind(entry) });
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ blocks, gcs }));
  });
}
