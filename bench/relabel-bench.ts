/**
 * The JSON answer's relabelling (`relabelAnswer`, src/gateway/relabel.ts) against the copy it
 * replaced (`{ ...value, id, model, provider, usage }`), in one run, rounds alternated. Each call
 * parses the benchmark's upstream answer (as the adapter does), relabels it and serialises the
 * result (as the sink does), so an object shape that serialises slower would show; the parse and
 * the serialisation are in both figures. Checks that both give the same JSON, then prints ns per
 * call (minimum and median over rounds) and the ratio.
 *
 *   node dist/bench/relabel-bench.js [--calls 50000] [--rounds 8]
 */
import { parseArgs } from 'node:util';
import type { CanonicalUsage } from '../src/canonical/index.js';
import type { RouteCandidate } from '../src/domain/routing/index.js';
import { usageWithCost, type CallCost } from '../src/gateway/cost.js';
import { relabelAnswer } from '../src/gateway/relabel.js';
import { completionJson } from './gateway-bench/payloads.js';
import { median } from './gateway-bench/stats.js';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '50000' }, rounds: { type: 'string', default: '8' } },
});
const calls = Number(values.calls);
const rounds = Number(values.rounds);

type Answer = { id: string; model: string; usage: CanonicalUsage; provider?: string };

/** What `relabelAnswer` was before: a copy of the answer with the four fields set. */
function relabelByCopy(value: Answer, by: { generationId: string; candidate: RouteCandidate; cost: CallCost }) {
  return {
    ...value,
    id: by.generationId,
    model: by.candidate.model.slug,
    provider: by.candidate.provider.name,
    usage: usageWithCost(value.usage, by.cost),
  };
}

const raw = completionJson();
const candidate = { model: { slug: 'bench/gpt-bench' }, provider: { name: 'Bench upstream' } } as RouteCandidate;
const by = {
  generationId: 'gen-1764230000000-0123456789',
  candidate,
  cost: { prompt: 0.1, completion: 0.2, total: 0.3 },
};
const ways: Record<string, (value: Answer) => unknown> = {
  copy: (value) => relabelByCopy(value, by),
  'in place': (value) => relabelAnswer(value, by),
};

const copied = JSON.stringify(relabelByCopy(JSON.parse(raw) as Answer, by));
const inPlace = JSON.stringify(relabelAnswer(JSON.parse(raw) as Answer, by));
if (copied !== inPlace) throw new Error(`the two answers differ:\n${copied}\n${inPlace}`);

let sink = 0;
const times: Record<string, number[]> = { copy: [], 'in place': [] };
const names = Object.keys(ways);
for (let r = 0; r < rounds + 1; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(r + k) % names.length] as string;
    const way = ways[name] as (value: Answer) => unknown;
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink += JSON.stringify(way(JSON.parse(raw) as Answer)).length;
    const ns = Number(process.hrtime.bigint() - start) / calls;
    if (r > 0) times[name]?.push(ns); // round 0 warms up
  }
}
const fmt = (v: number) => v.toFixed(0);
for (const name of names) {
  const t = times[name] ?? [];
  process.stdout.write(`${name.padEnd(9)} ns per call: min ${fmt(Math.min(...t))}, median ${fmt(median(t))}\n`);
}
const [a, b] = names.map((n) => times[n] ?? []);
process.stdout.write(
  `in place / copy: min ${(Math.min(...(b ?? [])) / Math.min(...(a ?? []))).toFixed(2)}, median ${(median(b ?? []) / median(a ?? [])).toFixed(2)} (${sink > 0 ? 'checked' : ''})\n`,
);
