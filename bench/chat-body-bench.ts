/**
 * The OpenAI chat upstream body, built the two-pass way (the request copied into one record, then
 * that record cut to the declared fields: test/providers/chat-body-two-pass.ts) against the
 * one-pass builder, in one run over the benchmark's chat request and a richer one (tools,
 * reasoning, extras). Alternated batches; prints µs per body for each way, with and without
 * `JSON.stringify`, the canonical request's decode for context, and checks the bytes agree.
 *   node dist/bench/chat-body-bench.js [--calls 20000] [--rounds 10]
 */
import { parseArgs } from 'node:util';
import { toCanonicalChatRequest, type CanonicalChatRequest } from '../src/canonical/index.js';
import { chatBody } from '../src/wire/openai-chat/outbound/request.js';
import { twoPassChatBody } from '../test/providers/chat-body-two-pass.js';
import { requestBody } from './gateway-bench/payloads.js';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '10' } },
});
const calls = Number(values.calls);
const rounds = Number(values.rounds);

type ClientBody = Parameters<typeof toCanonicalChatRequest>[0];
const benchBody = JSON.parse(requestBody(false)) as ClientBody;
const richBody = JSON.parse(
  requestBody(true, {
    tools: [{ type: 'function', function: { name: 'lookup', description: 'd', parameters: { type: 'object' } } }],
    tool_choice: 'auto',
    reasoning: { effort: 'high' },
    provider: { sort: 'price' },
    stream_options: { include_usage: true },
    store: false,
    user: 'u-1',
    vendor_flag: true,
  }),
) as ClientBody;

function time(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn();
  return Number(process.hrtime.bigint() - start) / calls / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

for (const [label, body, stream] of [
  ['bench request', benchBody, false],
  ['rich request', richBody, true],
] as const) {
  const req: CanonicalChatRequest = toCanonicalChatRequest(body, 'upstream-model');
  if (JSON.stringify(twoPassChatBody(req, stream)) !== JSON.stringify(chatBody(req, stream)))
    throw new Error(`the two builders disagree on the ${label}`);
  const ways: Record<string, () => unknown> = {
    'two-pass': () => twoPassChatBody(req, stream),
    'one-pass': () => chatBody(req, stream),
    'two-pass + stringify': () => JSON.stringify(twoPassChatBody(req, stream)),
    'one-pass + stringify': () => JSON.stringify(chatBody(req, stream)),
    'canonical decode': () => toCanonicalChatRequest(body, 'upstream-model'),
  };
  const result: Record<string, number[]> = {};
  for (const [name, fn] of Object.entries(ways)) {
    time(fn);
    result[name] = [];
  }
  for (let r = 0; r < rounds; r++) for (const [name, fn] of Object.entries(ways)) result[name]?.push(time(fn));
  console.log(`${label} (${rounds} × ${calls}):`);
  for (const [name, xs] of Object.entries(result))
    console.log(`  ${name.padEnd(22)} µs per body: min ${Math.min(...xs).toFixed(2)}, median ${median(xs).toFixed(2)}`);
}
