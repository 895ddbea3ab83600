/**
 * Scriptable behaviours of the fake upstream, chosen per request by (first match wins):
 * 1. a behaviour queued with `fake.queue(...)`, 2. the `x-fake-behaviour` header,
 * 3. the model name's last `/` segment (tokens joined with `+`, e.g. `fake/tool-call+no-usage`).
 * Tokens: `fail-<status>`, `slow-first-byte-<ms>`, `chunk-delay-<ms>`, `cut-stream-after-<n>`,
 * `tool-call`, `no-usage`, `hang`, `mid-stream-error`, `invalid-json`, `cache`, `no-done`,
 * `no-finish` (an OpenAI stream whose chunks never set a finish reason, ended by `[DONE]`),
 * `end-delay-<ms>` (a stream's last event, then a pause before the body ends), and the
 * faults of `faults.ts`: `garbage`, `huge-body-<bytes>`, `huge-event-<bytes>`,
 * `huge-first-event-<bytes>`, `hang-after-headers`, `trickle-<ms>`.
 */
export interface FakeBehaviour {
  failStatus: number | null;
  slowFirstByteMs: number;
  chunkDelayMs: number;
  cutStreamAfter: number | null;
  toolCall: boolean;
  noUsage: boolean;
  hang: boolean;
  midStreamError: boolean;
  invalidJson: boolean;
  cache: boolean;
  noDone: boolean;
  noFinish: boolean;
  endDelayMs: number;
  garbage: boolean;
  hugeBodyBytes: number | null;
  hugeEventBytes: number | null;
  /** The huge event is the stream's first (else it follows two normal events). */
  hugeEventFirst: boolean;
  hangAfterHeaders: boolean;
  trickleMs: number;
}

export const NORMAL: FakeBehaviour = {
  failStatus: null,
  slowFirstByteMs: 0,
  chunkDelayMs: 0,
  cutStreamAfter: null,
  toolCall: false,
  noUsage: false,
  hang: false,
  midStreamError: false,
  invalidJson: false,
  cache: false,
  noDone: false,
  noFinish: false,
  endDelayMs: 0,
  garbage: false,
  hugeBodyBytes: null,
  hugeEventBytes: null,
  hugeEventFirst: false,
  hangAfterHeaders: false,
  trickleMs: 0,
};

/** Applies tokens to a behaviour; returns null when no token was recognised. */
export function parseBehaviour(tokens: string): FakeBehaviour | null {
  const b: FakeBehaviour = { ...NORMAL };
  let recognised = false;
  for (const raw of tokens.split(/[,+]/)) {
    const token = raw.trim().toLowerCase();
    let m: RegExpExecArray | null;
    let hit = true;
    if ((m = /^fail-(\d{3})$/.exec(token)) !== null) b.failStatus = Number(m[1]);
    else if ((m = /^slow-first-byte-(\d+)$/.exec(token)) !== null) b.slowFirstByteMs = Number(m[1]);
    else if ((m = /^chunk-delay-(\d+)$/.exec(token)) !== null) b.chunkDelayMs = Number(m[1]);
    else if ((m = /^cut-stream-after-(\d+)$/.exec(token)) !== null) b.cutStreamAfter = Number(m[1]);
    else if (token === 'tool-call') b.toolCall = true;
    else if (token === 'no-usage') b.noUsage = true;
    else if (token === 'hang') b.hang = true;
    else if (token === 'mid-stream-error') b.midStreamError = true;
    else if (token === 'invalid-json') b.invalidJson = true;
    else if (token === 'cache') b.cache = true;
    else if (token === 'no-done') b.noDone = true;
    else if (token === 'no-finish') b.noFinish = true;
    else if ((m = /^end-delay-(\d+)$/.exec(token)) !== null) b.endDelayMs = Number(m[1]);
    else if (token === 'garbage') b.garbage = true;
    else if (token === 'hang-after-headers') b.hangAfterHeaders = true;
    else if ((m = /^huge-body-(\d+)$/.exec(token)) !== null) b.hugeBodyBytes = Number(m[1]);
    else if ((m = /^huge-(first-)?event-(\d+)$/.exec(token)) !== null) {
      b.hugeEventBytes = Number(m[2]);
      b.hugeEventFirst = m[1] !== undefined;
    } else if ((m = /^trickle-(\d+)$/.exec(token)) !== null) b.trickleMs = Number(m[1]);
    else hit = false;
    recognised ||= hit;
  }
  return recognised ? b : null;
}

/** Deterministic answer of the fake (both wire formats). */
export const FAKE_PIECES = ['Hello', ' from', ' the', ' fake', ' upstream', '.'];
export const FAKE_TEXT = FAKE_PIECES.join('');
export const FAKE_USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
export const FAKE_CACHE = { read: 4, write: 2 };
export const FAKE_TOOL_ARGS = '{"city":"Paris"}';
export const FAKE_TOOL_ARG_PIECES = ['{"city":', '"Paris"}'];
export const FAKE_CREATED = 1_700_000_000;
