/**
 * Where a sequential call's wall time goes inside one server process, the same way for any Node
 * server that answers with node:http and calls its upstream with undici (the bare proxy and
 * Switchyard alike). Preload it into the targets of a c=1 run:
 *   STEP_STAMPS_DIR=/tmp/stamps NODE_OPTIONS="--import $PWD/dist/bench/gateway-bench/step-stamps.js" \
 *     node dist/bench/gateway-bench/latency-c1.js --rounds 4 --per-round 300
 * Each process with at least 100 POST requests writes STEP_STAMPS_DIR/<pid>-<script>.txt on exit:
 * per request body length (the benchmark's JSON and streamed bodies differ by one byte, `false`
 * against `true`), the p50 and p25 in µs after the server's 'request' event of: `gap` (from the
 * previous answer's `end()` returning to this request's event: the client's turnaround, plus any
 * work of the server's that the request waited for), `handler` (the route's handler starts, on
 * Fastify or on Switchyard's lean model-call edge: routing, auth, body parsing, validation done), undici's `create`, `sendHeaders`, `bodySent` (the
 * upstream request made, written, its body written), `upHeaders`, `upDone` (the upstream answer's
 * headers, its end), `firstWrite` (the first answer bytes handed to node:http), `endCall` and
 * `endDone` (the answer's `end()` called and returned), `tail` (from `endDone` to the end of the
 * last `setImmediate` callback run before the next request's event: the work the server does
 * after the answer, e.g. Switchyard's metrics and call-log line; 0 when none ran). Calls are assumed sequential (c=1): a
 * stamp is given to the request in progress. The stamps cost a few µs per call, alike for every
 * target. Measurement only; nothing of Switchyard loads it.
 */
import { subscribe } from 'node:diagnostics_channel';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { basename, join } from 'node:path';

const STEPS = [
  'gap',
  'handler',
  'create',
  'sendHeaders',
  'bodySent',
  'upHeaders',
  'upDone',
  'firstWrite',
  'endCall',
  'endDone',
  'tail',
] as const;
type Step = (typeof STEPS)[number];
type Stamps = Partial<Record<Step, number>> & { t0: number };

const dir = process.env.STEP_STAMPS_DIR ?? '/tmp/step-stamps';
const nowUs = () => Number(process.hrtime.bigint()) / 1000;
const byLength = new Map<string, Stamps[]>();
let current: Stamps | null = null;
let lastEnd = 0;
let previous: Stamps | null = null;
let lastImmediateEnd = 0;

// Stamps the end of every `setImmediate` callback of the process (the work left after an answer).
const setImmediateOf = globalThis.setImmediate;
globalThis.setImmediate = ((callback: (...args: unknown[]) => void, ...args: unknown[]) =>
  setImmediateOf(() => {
    try {
      callback(...args);
    } finally {
      lastImmediateEnd = nowUs();
    }
  })) as typeof setImmediate;

const mark = (step: Step) => () => {
  if (current !== null && current[step] === undefined) current[step] = nowUs() - current.t0;
};
subscribe('tracing:fastify.request.handler:start', mark('handler'));
// The lean model-call edge's handler (src/http/edge/model-call-edge.ts, LEAN_HANDLER_CHANNEL).
subscribe('switchyard:lean-edge:handler', mark('handler'));
subscribe('undici:request:create', mark('create'));
subscribe('undici:client:sendHeaders', mark('sendHeaders'));
subscribe('undici:request:bodySent', mark('bodySent'));
subscribe('undici:request:headers', mark('upHeaders'));
subscribe('undici:request:trailers', mark('upDone'));

function stampAnswer(stamps: Stamps, res: ServerResponse): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    stamps.firstWrite ??= nowUs() - stamps.t0;
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    stamps.endCall = nowUs() - stamps.t0;
    stamps.firstWrite ??= stamps.endCall;
    const result = end(...args);
    lastEnd = nowUs();
    stamps.endDone = lastEnd - stamps.t0;
    return result;
  }) as ServerResponse['end'];
}

type Emit = (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
// Replaced on the prototype and called with the server as `this`, as Node calls it.
const emit = Reflect.get(Server.prototype, 'emit') as Emit;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
  const [req, res] = args as [IncomingMessage, ServerResponse];
  if (event === 'request' && req.method === 'POST') {
    const t0 = nowUs();
    const stamps: Stamps = lastEnd === 0 ? { t0 } : { t0, gap: t0 - lastEnd };
    if (previous?.endDone !== undefined)
      previous.tail = Math.max(0, lastImmediateEnd - (previous.t0 + previous.endDone));
    previous = current = stamps;
    const length = req.headers['content-length'] ?? '?';
    const list = byLength.get(length) ?? [];
    if (list.length === 0) byLength.set(length, list);
    list.push(stamps);
    stampAnswer(stamps, res);
  }
  return emit.call(this, event, ...args);
} as Server['emit'];

function report(): string {
  let out = '';
  for (const [length, list] of byLength) {
    if (list.length < 100) continue;
    out += `request body of ${length} bytes: ${list.length} requests, µs after the 'request' event\n`;
    for (const step of STEPS) {
      const values = list.flatMap((s) => (s[step] === undefined ? [] : [s[step]])).sort((a, b) => a - b);
      if (values.length === 0) continue;
      const at = (q: number) => (values[Math.floor(values.length * q)] as number).toFixed(0).padStart(6);
      out += `  ${step.padEnd(12)} p50 ${at(0.5)}  p25 ${at(0.25)}\n`;
    }
  }
  return out;
}

let written = false;
function dump(): void {
  if (written) return;
  written = true;
  const text = report();
  if (text === '') return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${process.pid}-${basename(process.argv[1] ?? 'node')}.txt`), text);
}
process.once('SIGTERM', () => {
  dump();
  process.exit(0);
});
process.once('exit', dump);
