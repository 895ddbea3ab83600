/**
 * What RE2 is given for a text, the string against its UTF-8 bytes made once, in one run: the
 * benchmark's full filter set's gate (the alternation of the custom patterns and the injection
 * phrases, as set-gate.ts builds it) and a second RE2 (one custom pattern's exec loop, as a
 * detector runs it) over the texts of the benchmark's chat request in turn, as the scan reads
 * them. Each RE2 object converts a string subject itself and reuses that copy only for its own
 * next call on the same string; `utf8Of` makes the bytes once for all of them. Prints µs per
 * request (both texts) for each way, alternated batches, and the whole `scan` for context.
 *   node dist/bench/re2-subject-bench.js [--calls 20000] [--rounds 10]
 */
import { parseArgs } from 'node:util';
import RE2 from 're2';
import { compileFilterSet, scan, type TextSegment } from '../src/filters/index.js';
import { compileRe2, findSpans, utf8Of } from '../src/filters/regex.js';
import { requestBody } from './gateway-bench/payloads.js';
import { GUARDRAIL } from './gateway-bench/switchyard-target.js';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '10' } },
});
const calls = Number(values.calls);
const rounds = Number(values.rounds);

const body = JSON.parse(requestBody(false)) as { messages: { role: 'system' | 'user'; content: string }[] };
const segments: TextSegment[] = body.messages.map((m) => ({ role: m.role, text: m.content }));
const texts = segments.map((s) => s.text);
const set = compileFilterSet({
  builtins: GUARDRAIL.content_filter_builtins,
  custom: GUARDRAIL.content_filters,
});
const gateSources = set.filters.flatMap((f) => (f.gate === undefined ? [] : [`(?:${f.gate})`]));
const gate = new RE2(gateSources.join('|'), 'u');
const detector = compileRe2(GUARDRAIL.content_filters[0]?.pattern ?? 'x');

/** The previous way: each RE2 given the string. */
function execLoop(subject: string | Buffer): number {
  let n = 0;
  detector.lastIndex = 0;
  for (;;) {
    const m = typeof subject === 'string' ? detector.exec(subject) : detector.exec(subject);
    if (m === null) break;
    n++;
  }
  detector.lastIndex = 0;
  return n;
}

function strings(): number {
  let n = 0;
  for (const text of texts) n += (gate.test(text) ? 1 : 0) + execLoop(text);
  return n;
}

function bytes(): number {
  let n = 0;
  for (const text of texts) n += (gate.test(utf8Of(text)) ? 1 : 0) + findSpans(detector, text).length;
  return n;
}

function time(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn();
  return Number(process.hrtime.bigint() - start) / calls / 1000;
}

if (strings() !== bytes()) throw new Error('the two ways disagree');
time(strings);
time(bytes);
time(() => scan(set, segments));
const result: Record<string, number[]> = { strings: [], bytes: [], scan: [] };
for (let r = 0; r < rounds; r++) {
  result.strings?.push(time(strings));
  result.bytes?.push(time(bytes));
  result.scan?.push(time(() => scan(set, segments)));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
for (const [name, xs] of Object.entries(result))
  console.log(
    `${name.padEnd(8)} µs per request: min ${Math.min(...xs).toFixed(2)}, median ${median(xs).toFixed(2)} (${rounds} × ${calls})`,
  );
