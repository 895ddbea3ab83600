/**
 * Garbage and CPU of one content-filter scan of a model call's texts, the benchmark's full policy
 * (every builtin, ten custom patterns), this build against another build's `dist/` in the same
 * process. Bytes are V8's sampled allocations per scan (one sample per 4 KB, collected objects
 * included); µs per scan is timed without the sampler, builds alternated per round. Both builds must find the same
 * matches (checked first). The calls: the gateway benchmark's request, a text with matches to
 * build, and the filter corpus (every sample's text scanned as one user message: a "scan" there
 * is the whole corpus, so its figures are per pass over ~750 texts, and its scans are fewer).
 * The word-based detectors (person names, addresses) are also scanned as a set of their own. Then
 * each builtin detector alone on the benchmark request's texts, alternated the same way.
 *   node dist/bench/filter-scan-alloc-bench.js --base /path/to/other/dist [--scans 20000] [--rounds 5]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { vsBaseArgs } from './vs-base-args.js';
import {
  BUILTIN_FILTERS as ownBuiltins,
  BUILTIN_SLUGS,
  compileFilterSet as ownCompile,
  scan as ownScan,
} from '../src/filters/index.js';
import type { BuiltinSlug, CompiledFilterSet, Filter, ScanResult, TextSegment } from '../src/filters/index.js';
import { parseCorpus } from '../src/filters/evaluate.js';
import { startAllocationSampling } from './gateway-bench/alloc-profile.js';
import { GUARDRAIL } from './gateway-bench/switchyard-target.js';
import { requestBody } from './gateway-bench/payloads.js';

type Scan = (set: CompiledFilterSet, segments: TextSegment[]) => ScanResult;
interface Build {
  name: string;
  scan: Scan;
  set: CompiledFilterSet;
  /** The word-based detectors alone (person names, addresses). */
  words: CompiledFilterSet;
  builtins: Readonly<Record<BuiltinSlug, Filter>>;
}

const values = vsBaseArgs({ scans: 20_000, rounds: 5 });
const SCANS = values.scans;
const ROUNDS = values.rounds;

const policy = {
  builtins: GUARDRAIL.content_filter_builtins,
  custom: GUARDRAIL.content_filters,
};
const wordPolicy = {
  builtins: [
    { slug: 'person-name', action: 'redact' },
    { slug: 'address', action: 'redact' },
  ],
  custom: [],
} as Parameters<typeof ownCompile>[0];
const benchMessages = (
  JSON.parse(requestBody(false)) as { messages: Array<{ role: 'system' | 'user'; content: string }> }
).messages;
const benchCall: TextSegment[] = benchMessages.map((m) => ({ role: m.role, text: m.content }));
const corpusPath = fileURLToPath(new URL('../../test/fixtures/filter-corpus/corpus.jsonl', import.meta.url));
const corpus: TextSegment[][] = parseCorpus(readFileSync(corpusPath, 'utf8')).map((s) => [
  { role: 'user', text: s.text },
]);

/** A call: scans of one or more segment lists (the corpus is many), and how many passes make a round. */
interface Call {
  name: string;
  calls: TextSegment[][];
  scans: number;
  /** Which set scans it: the benchmark's full policy (default) or the word detectors alone. */
  set?: 'words';
}

const CALLS: Call[] = [
  { name: "the gateway benchmark's request", calls: [benchCall], scans: SCANS },
  {
    name: 'a text with names, an address and a phone number',
    calls: [
      [
        {
          role: 'user',
          text:
            'Summarize the meeting notes. Attendees: Sarah Johnson, Dr. Patel and Marco Rossi. Ask Will Smith to ' +
            'call +44 20 7946 0958 or write to 742 Evergreen Terrace, Springfield, IL 62704 before Monday.',
        },
      ],
    ],
    scans: SCANS,
  },
  { name: "the benchmark's request, person names + address only", calls: [benchCall], scans: SCANS, set: 'words' },
  { name: `the filter corpus (${corpus.length} texts)`, calls: corpus, scans: Math.max(1, Math.round(SCANS / 400)) },
];

async function load(dist: string): Promise<Build> {
  const mod = (await import(`${dist}/src/filters/index.js`)) as {
    compileFilterSet: typeof ownCompile;
    scan: Scan;
    BUILTIN_FILTERS: Readonly<Record<BuiltinSlug, Filter>>;
  };
  return {
    name: 'base',
    scan: mod.scan,
    set: mod.compileFilterSet(policy),
    words: mod.compileFilterSet(wordPolicy),
    builtins: mod.BUILTIN_FILTERS,
  };
}

function passes(b: Build, call: Call): void {
  const set = call.set === 'words' ? b.words : b.set;
  for (let i = 0; i < call.scans; i++) for (const segments of call.calls) b.scan(set, segments);
}

async function bytesPerScan(b: Build, call: Call): Promise<number> {
  const stop = await startAllocationSampling();
  passes(b, call);
  let total = 0;
  for (const bytes of (await stop()).values()) total += bytes;
  return total / call.scans;
}

function micros(fn: () => void, count: number): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

/** Min and median of each build's rounds, the builds alternated per round. */
function alternated(builds: Build[], run: (b: Build) => number): Map<string, number[]> {
  const out = new Map<string, number[]>(builds.map((b) => [b.name, []]));
  for (let r = 0; r < ROUNDS; r++) for (const b of builds) out.get(b.name)?.push(run(b));
  for (const list of out.values()) list.sort((x, y) => x - y);
  return out;
}

const fmt = (us: number[]): string => `min ${(us[0] ?? 0).toFixed(2)} median ${(us[us.length >> 1] ?? 0).toFixed(2)}`;

const builds: Build[] = [
  await load(values.base),
  {
    name: 'this build',
    scan: ownScan,
    set: ownCompile(policy),
    words: ownCompile(wordPolicy),
    builtins: ownBuiltins,
  },
];
for (const call of CALLS) {
  for (const segments of call.calls) {
    const [base, own] = builds.map((b) => b.scan(call.set === 'words' ? b.words : b.set, segments));
    if (!isDeepStrictEqual(base, own)) throw new Error(`the two builds scan differently: ${JSON.stringify(segments)}`);
  }
}
for (const call of CALLS) {
  const chars = call.calls.reduce((n, segs) => n + segs.reduce((m, s) => m + s.text.length, 0), 0);
  for (const b of builds) passes(b, { ...call, scans: Math.max(1, Math.round(call.scans / 10)) }); // warm up
  const us = alternated(builds, (b) => micros(() => passes(b, call), call.scans));
  console.log(`${call.name} (${chars} chars), ${call.scans} scans × ${ROUNDS} rounds:`);
  for (const b of builds) {
    const bytes = await bytesPerScan(b, call);
    console.log(`  ${b.name.padEnd(10)} ${bytes.toFixed(0).padStart(7)} B/scan   µs/scan ${fmt(us.get(b.name) ?? [])}`);
  }
}

console.log(`each builtin alone on the benchmark request's texts, ${SCANS} calls × ${ROUNDS} rounds (µs per call):`);
for (const slug of BUILTIN_SLUGS) {
  const run = (b: Build): void => {
    const filter = b.builtins[slug];
    filter.prepare?.();
    for (let i = 0; i < SCANS; i++) for (const s of benchCall) filter.find(s.text);
  };
  for (const b of builds) run(b); // warm up
  const us = alternated(builds, (b) => micros(() => run(b), SCANS));
  console.log(`  ${slug.padEnd(24)} ${builds.map((b) => `${b.name} ${fmt(us.get(b.name) ?? [])}`).join('   ')}`);
}
