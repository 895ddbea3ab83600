/**
 * Garbage and CPU of one content-filter scan of a model call's texts, the benchmark's full policy
 * (every builtin, ten custom patterns), this build against another build's `dist/` in the same
 * process. Bytes are V8's sampled allocations per scan (one sample per 4 KB, collected objects
 * included); µs per scan is timed without the sampler, builds alternated per round. Both builds must find the same
 * matches (checked first).
 *   node dist/bench/filter-scan-alloc-bench.js --base /path/to/other/dist [--scans 20000] [--rounds 5]
 */
import { isDeepStrictEqual } from 'node:util';
import { vsBaseArgs } from './vs-base-args.js';
import { compileFilterSet as ownCompile, scan as ownScan } from '../src/filters/index.js';
import type { CompiledFilterSet, ScanResult, TextSegment } from '../src/filters/index.js';
import { startAllocationSampling } from './gateway-bench/alloc-profile.js';
import { GUARDRAIL } from './gateway-bench/switchyard-target.js';
import { requestBody } from './gateway-bench/payloads.js';

type Scan = (set: CompiledFilterSet, segments: TextSegment[]) => ScanResult;
interface Build {
  name: string;
  scan: Scan;
  set: CompiledFilterSet;
}

const values = vsBaseArgs({ scans: 20_000, rounds: 5 });
const SCANS = values.scans;
const ROUNDS = values.rounds;

const policy = {
  builtins: GUARDRAIL.content_filter_builtins,
  custom: GUARDRAIL.content_filters,
} as Parameters<typeof ownCompile>[0];
const benchMessages = (
  JSON.parse(requestBody(false)) as { messages: Array<{ role: 'system' | 'user'; content: string }> }
).messages;

/** The benchmark's call, and a text with names, an address and a phone number (matches to build). */
const CALLS: TextSegment[][] = [
  benchMessages.map((m) => ({ role: m.role, text: m.content })),
  [
    {
      role: 'user',
      text:
        'Summarize the meeting notes. Attendees: Sarah Johnson, Dr. Patel and Marco Rossi. Ask Will Smith to ' +
        'call +44 20 7946 0958 or write to 742 Evergreen Terrace, Springfield, IL 62704 before Monday.',
    },
  ],
];

async function load(dist: string): Promise<Build> {
  const mod = (await import(`${dist}/src/filters/index.js`)) as { compileFilterSet: typeof ownCompile; scan: Scan };
  return { name: 'base', scan: mod.scan, set: mod.compileFilterSet(policy) };
}

async function bytesPerScan(b: Build, segments: TextSegment[]): Promise<number> {
  const stop = await startAllocationSampling();
  for (let i = 0; i < SCANS; i++) b.scan(b.set, segments);
  let total = 0;
  for (const bytes of (await stop()).values()) total += bytes;
  return total / SCANS;
}

function microsPerScan(b: Build, segments: TextSegment[]): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < SCANS; i++) b.scan(b.set, segments);
  return Number(process.hrtime.bigint() - start) / 1000 / SCANS;
}

const builds: Build[] = [await load(values.base), { name: 'this build', scan: ownScan, set: ownCompile(policy) }];
for (const segments of CALLS) {
  const [base, own] = builds.map((b) => b.scan(b.set, segments));
  if (!isDeepStrictEqual(base, own)) throw new Error('the two builds scan differently');
}
for (const [i, segments] of CALLS.entries()) {
  const chars = segments.reduce((n, s) => n + s.text.length, 0);
  for (const b of builds) for (let k = 0; k < 2000; k++) b.scan(b.set, segments); // warm up
  const micros = new Map<string, number[]>(builds.map((b) => [b.name, []]));
  for (let r = 0; r < ROUNDS; r++) for (const b of builds) micros.get(b.name)?.push(microsPerScan(b, segments));
  console.log(`call ${i + 1} (${segments.length} texts, ${chars} chars), ${SCANS} scans × ${ROUNDS} rounds:`);
  for (const b of builds) {
    const us = (micros.get(b.name) ?? []).sort((x, y) => x - y);
    const bytes = await bytesPerScan(b, segments);
    console.log(
      `  ${b.name.padEnd(10)} ${bytes.toFixed(0).padStart(6)} B/scan   µs/scan min ${(us[0] ?? 0).toFixed(2)} median ${(us[us.length >> 1] ?? 0).toFixed(2)}`,
    );
  }
}
