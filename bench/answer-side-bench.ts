/**
 * The answer side's per-call work, this build against another build's `dist/` in one process,
 * builds alternated per round: the JSON answer (the upstream's body parsed, `chatResponse`,
 * `relabelAnswer` with its usage and cost, `JSON.stringify`), the stream's usage event (parsed,
 * `chatChunk`, `relabelChunk` with the cost, serialised), a content event (the same, plus
 * `deltaText` for the usage estimate) and a stream's response headers (`SseWriter.commit`). The
 * payloads are the gateway benchmark's. Both builds must
 * write the same bytes (checked first); prints ns per piece (minimum and median over rounds) and
 * the ratio own / base.
 *   node dist/bench/answer-side-bench.js --base /path/to/other/dist [--calls 20000] [--rounds 8]
 */
import type { CanonicalChunk, CanonicalDelta } from '../src/canonical/index.js';
import type { RouteCandidate } from '../src/domain/routing/index.js';
import type { CallCost } from '../src/gateway/cost.js';
import { completionJson, sseEvents } from './gateway-bench/payloads.js';
import { median } from './gateway-bench/stats.js';
import { vsBaseArgs } from './vs-base-args.js';

type Json = Record<string, unknown>;
interface Build {
  name: string;
  chatResponse: (body: unknown, fallback: { model: string; id: string; prompt: () => string }) => Json | null;
  chatChunk: (body: Json, fallback: { model: string; id: string; created: number }) => CanonicalChunk;
  relabelAnswer: (value: Json, by: { generationId: string; candidate: RouteCandidate; cost: CallCost }) => Json;
  relabelChunk: (chunk: Json, by: { generationId: string; candidate: RouteCandidate }, cost: CallCost | null) => Json;
  costOf: (usage: { prompt_tokens: number; completion_tokens: number }, pricing: Json) => CallCost;
  deltaText: (d: CanonicalDelta) => string;
  SseWriter: new (res: unknown, options: Json) => { commit(): void };
}

const values = vsBaseArgs({ calls: 20_000, rounds: 8 });

async function load(name: string, dist: string): Promise<Build> {
  const response = (await import(`${dist}/src/wire/openai-chat/outbound/response.js`)) as Pick<
    Build,
    'chatResponse' | 'chatChunk'
  >;
  const relabel = (await import(`${dist}/src/gateway/relabel.js`)) as Pick<Build, 'relabelAnswer' | 'relabelChunk'>;
  const cost = (await import(`${dist}/src/gateway/cost.js`)) as Pick<Build, 'costOf'>;
  const text = (await import(`${dist}/src/canonical/estimate-text.js`)) as Pick<Build, 'deltaText'>;
  const sse = (await import(`${dist}/src/http/sse-writer.js`)) as Pick<Build, 'SseWriter'>;
  return { name, ...response, ...relabel, ...cost, ...text, ...sse };
}

const ownDist = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const builds = [await load('base', values.base.replace(/\/$/, '')), await load('own', ownDist)];

const candidate = { model: { slug: 'bench/gpt-bench' }, provider: { name: 'Bench upstream' } } as RouteCandidate;
const pricing = { prompt: 0.000001, completion: 0.000002, request: 0 };
const label = { generationId: 'gen-1764230000000-0123456789', candidate };
const fallback = { model: 'upstream', id: 'x', created: 1, prompt: () => '' };
const answerText = completionJson();
const data = (event: string) => event.slice('data: '.length).trim();
const events = sseEvents();
const usageText = data(events[events.length - 2] as string);
const contentText = data(events[3] as string);

const callHeaders = { 'x-request-id': 'req-1', 'x-generation-id': label.generationId };
/** A response that keeps what `writeHead` was given. */
const res = { head: '', writeHead: (_status: number, headers: Json) => (res.head = JSON.stringify(headers)) };

/** One piece of the answer side: returns the bytes written, so both builds can be compared. */
const PIECES: Record<string, (b: Build) => string> = {
  'JSON answer': (b) => {
    const value = b.chatResponse(JSON.parse(answerText), fallback) as Json & {
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    return JSON.stringify(b.relabelAnswer(value, { ...label, cost: b.costOf(value.usage, pricing) }));
  },
  'usage event': (b) => {
    const chunk = b.chatChunk(JSON.parse(usageText) as Json, fallback);
    return JSON.stringify(b.relabelChunk(chunk as unknown as Json, label, b.costOf(chunk.usage!, pricing)));
  },
  'content event': (b) => {
    const chunk = b.chatChunk(JSON.parse(contentText) as Json, fallback);
    let kept = '';
    for (const choice of chunk.choices) kept = b.deltaText(choice.delta);
    return JSON.stringify(b.relabelChunk(chunk as unknown as Json, label, null)) + kept.slice(0, 0);
  },
  'stream headers': (b) => {
    new b.SseWriter(res, { keepAliveAfterMs: 1, keepAliveEveryMs: 1, headers: callHeaders }).commit();
    return res.head;
  },
};

for (const [piece, run] of Object.entries(PIECES)) {
  const [a, b] = builds.map((build) => run(build));
  if (a !== b) throw new Error(`${piece}: the builds write different bytes:\n${a}\n${b}`);
}

let sink = 0;
for (const [piece, run] of Object.entries(PIECES)) {
  const times: Record<string, number[]> = { base: [], own: [] };
  for (let r = 0; r < values.rounds + 1; r++) {
    for (let k = 0; k < builds.length; k++) {
      const build = builds[(r + k) % builds.length] as Build;
      const start = process.hrtime.bigint();
      for (let i = 0; i < values.calls; i++) sink += run(build).length;
      const ns = Number(process.hrtime.bigint() - start) / values.calls;
      if (r > 0) times[build.name]?.push(ns); // round 0 warms up
    }
  }
  const base = times.base ?? [];
  const own = times.own ?? [];
  process.stdout.write(
    `${piece.padEnd(14)} ns: base min ${Math.min(...base).toFixed(0)} median ${median(base).toFixed(0)}; ` +
      `own min ${Math.min(...own).toFixed(0)} median ${median(own).toFixed(0)}; ` +
      `own/base min ${(Math.min(...own) / Math.min(...base)).toFixed(2)} median ${(median(own) / median(base)).toFixed(2)}\n`,
  );
}
if (sink === 0) throw new Error('nothing written');
