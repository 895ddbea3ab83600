/**
 * The per-call objects of the model-call edge, each against what it replaced, in one run:
 * the request's logger (a pino child per request vs one made on first use) and the call's abort
 * signal with its 'close' listener (an `EventTarget` and a `once` closure vs the plain signal and
 * one shared listener), the token's digest (a `Hash` object per call vs the one-shot `hash`), and
 * a cached key's authentication as the hook takes it (the authenticator's promise vs
 * `authenticateNow`; each batch's microtasks are drained inside its timing). Prints ns and bytes per call for each (bytes from the heap growth with
 * the collector's young space large enough to hold a batch; run with --expose-gc).
 *
 *   node --expose-gc dist/bench/request-edge-bench.js [--calls 200000]
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { FastifyReply } from 'fastify';
import { abortOnDisconnect } from '../src/http/client-abort.js';
import { LazyRequestLogger } from '../src/http/lazy-request-logger.js';
import { digestToken, generateToken } from '../src/domain/keys/tokens.js';
import { KeyAuthenticator } from '../src/domain/keys/authenticator.js';
import { keyRecord } from '../src/domain/keys/key-fixture.js';
import type { KeyRecord } from '../src/domain/keys/types.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '200000' } } });
const calls = Number(values.calls);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

/** The signal before: an EventTarget with the AbortSignal fields, and a `once` closure. */
class EventTargetSignal extends EventTarget {
  aborted = false;
  abort(): void {
    this.aborted = true;
    this.dispatchEvent(new Event('abort'));
  }
}
function eventTargetOnDisconnect(raw: EventEmitter & { writableFinished: boolean }): EventTargetSignal {
  const signal = new EventTargetSignal();
  raw.once('close', () => {
    if (!raw.writableFinished) signal.abort();
  });
  return signal;
}

const sink = new Writable({ write: (_c, _e, done) => done() });
const logger = pino({ level: 'info', redact: ['req.headers.authorization'] }, sink);
const listener = { handleEvent: (): void => undefined };
const token = generateToken();
if (createHash('sha256').update(token, 'utf8').digest('hex') !== digestToken(token)) throw new Error('digests differ');
const stored = keyRecord(token);
const authenticator = new KeyAuthenticator({
  keys: { findByDigest: (digest) => Promise.resolve(digest === stored.tokenDigest ? stored : null) },
  clock: { now: () => new Date() },
  changes: { state: () => 'live', refresh: () => undefined },
  revalidateAfterMs: 60_000,
  graceMs: 60_000,
});
await authenticator.authenticate(token);
let admitted = 0;
const settle = (outcome: KeyRecord | Error): void => {
  if (!(outcome instanceof Error)) admitted += 1;
};

/** Each call: the objects one request makes, listened to and released as a call does. */
const cases: Record<string, (i: number) => unknown> = {
  'logger: pino child per request (before)': (i) => logger.child({ reqId: `req_${i}` }, {}),
  'logger: made on first use (after)': (i) => new LazyRequestLogger(logger, { reqId: `req_${i}` }, {}),
  'signal: EventTarget + once (before)': () => {
    const raw = Object.assign(new EventEmitter(), { writableFinished: false });
    const signal = eventTargetOnDisconnect(raw);
    signal.addEventListener('abort', listener, { once: true });
    signal.removeEventListener('abort', listener);
    return signal;
  },
  'signal: plain + one listener (after)': () => {
    const raw = Object.assign(new EventEmitter(), { writableFinished: false });
    const signal = abortOnDisconnect({ raw } as unknown as FastifyReply);
    signal.addEventListener('abort', listener, { once: true });
    signal.removeEventListener('abort', listener);
    return signal;
  },
  'token digest: createHash (before)': () => createHash('sha256').update(token, 'utf8').digest('hex'),
  'token digest: one-shot hash (after)': () => digestToken(token),
  'cached key: authenticate promise (before)': () => authenticator.authenticate(token).then(settle, settle),
  'cached key: authenticateNow (after)': () => {
    const outcome = authenticator.authenticateNow(token);
    if (outcome instanceof Promise) outcome.then(settle, settle);
    else settle(outcome);
  },
};

async function measure(run: (i: number) => unknown): Promise<{ ns: number; bytes: number }> {
  const batch = 2_000;
  const keep: unknown[] = new Array<unknown>(batch);
  let bytes = 0;
  let ns = 0;
  for (let done = 0; done < calls; done += batch) {
    gc?.();
    const heap = process.memoryUsage().heapUsed;
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) keep[i] = run(done + i);
    // Promise reactions run here, inside the timing (the same loop turn for every case).
    await new Promise((resolve) => setImmediate(resolve));
    ns += Number(process.hrtime.bigint() - start);
    bytes += process.memoryUsage().heapUsed - heap;
  }
  return { ns: ns / calls, bytes: bytes / calls };
}

for (let round = 1; round <= 3; round++) {
  for (const [name, run] of Object.entries(cases)) {
    const { ns, bytes } = await measure(run);
    process.stderr.write(
      `round ${round}  ${name.padEnd(42)} ${ns.toFixed(0).padStart(6)} ns  ${bytes.toFixed(0).padStart(6)} B per call\n`,
    );
  }
}
if (admitted !== calls * 6) throw new Error(`admitted ${admitted} of ${calls * 6} authentications`);
