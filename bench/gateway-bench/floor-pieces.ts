/**
 * What each piece of the policy floor (floor-policy.ts, floor-proxy.ts) costs per call, in
 * process, on the benchmark's bodies: CPU µs per call as the minimum over rounds (robust on a
 * busy machine), and the whole floor's work (request side + answer side) next to nothing at all.
 *   node dist/bench/gateway-bench/floor-pieces.js [--rounds 8] [--per-round 2000]
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChatRequestBody } from '../../src/canonical/index.js';
import { randomHex } from '../../src/domain/common/ids.js';
import { digestToken, generateToken } from '../../src/domain/keys/tokens.js';
import { screenRequest } from '../../src/gateway/content-scan.js';
import { admit, floorPolicy, type Admitted } from './floor-policy.js';
import { journalLine, relabel, type Labelled } from './floor-proxy.js';
import { completionJson, requestBody, sseEvents, UPSTREAM_MODEL } from './payloads.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '8' }, 'per-round': { type: 'string', default: '2000' } },
});
const rounds = Number(values.rounds);
const perRound = Number(values['per-round']);

const token = generateToken();
const policy = floorPolicy(token);
const auth = `Bearer ${token}`;
const jsonRequest = requestBody(false);
const streamRequest = requestBody(true);
const answer = completionJson();
const events = sseEvents().join('');
const journalPath = join(tmpdir(), `floor-pieces-${process.pid}.tsv`);
const fd = openSync(journalPath, 'w');
const parsedRequest = JSON.parse(jsonRequest) as ChatRequestBody;
let sink = 0;

function admitted(raw: string): Admitted {
  const call = admit(policy, auth, raw);
  if ('status' in call) throw new Error(`refused: ${call.status} ${call.message}`);
  return call;
}

const call = admitted(jsonRequest);
const answered = relabel(policy, call, JSON.parse(answer) as Labelled);

const pieces: [string, () => void][] = [
  ['nothing (the loop itself)', () => void sink++],
  ['key: digestToken + Map lookup', () => void (sink += policy.keys.has(digestToken(token)) ? 1 : 0)],
  ['request: JSON.parse', () => void (sink += (JSON.parse(jsonRequest) as object) === null ? 0 : 1)],
  ['request: schema validation', () => void (sink += policy.validate(JSON.parse(jsonRequest)) === true ? 1 : 0)],
  [
    'request: content screening (scan)',
    () =>
      void (sink += screenRequest({
        kind: 'chat',
        body: parsedRequest,
        filters: policy.filters,
        failOpen: false,
      }).redactions),
  ],
  ['request: generation id', () => void (sink += `gen-${Date.now()}-${randomHex(10)}`.length)],
  [
    'request: upstream body JSON.stringify',
    () => void (sink += JSON.stringify({ ...parsedRequest, model: UPSTREAM_MODEL }).length),
  ],
  ['request side, whole (admit), JSON call', () => void (sink += admitted(jsonRequest).upstreamBody.length)],
  ['request side, whole (admit), streamed call', () => void (sink += admitted(streamRequest).upstreamBody.length)],
  [
    'answer JSON: parse + relabel + stringify',
    () => void (sink += JSON.stringify(relabel(policy, call, JSON.parse(answer) as Labelled)).length),
  ],
  ['journal: one writeSync of ~200 bytes', () => void (sink += writeSync(fd, journalLine(call, answered.usage)))],
  [
    'answer stream: 20 events split, parsed, relabelled, serialised',
    () => {
      let out = '';
      for (const event of events.split('\n\n')) {
        if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
        out += `data: ${JSON.stringify(relabel(policy, call, JSON.parse(event.slice(6)) as Labelled))}\n\n`;
      }
      sink += out.length;
    },
  ],
];

function cpuUsPerCall(fn: () => void): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < perRound; i++) fn();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / perRound);
  }
  return best;
}

for (const [, fn] of pieces) for (let i = 0; i < 500; i++) fn(); // warm-up (compiles the validator, JIT)
const lines = ['| piece of the floor | CPU µs per call (min over rounds) |', '|---|---:|'];
for (const [name, fn] of pieces) lines.push(`| ${name} | ${cpuUsPerCall(fn).toFixed(2)} |`);
closeSync(fd);
rmSync(journalPath, { force: true });
process.stdout.write(
  `Node ${process.version}, ${rounds} rounds × ${perRound} calls per piece (sink ${sink > 0 ? 'used' : 'empty'})\n\n${lines.join('\n')}\n`,
);
