/**
 * The bodies every target sees: one realistic chat request (system + user message, ~1 KB, no
 * PII so filters scan but redact nothing) and the fake upstream's answers: a ~1.5 KB chat
 * completion and a 20-event SSE stream whose last data event carries usage.
 */
export const BENCH_MODEL = 'bench/gpt-bench';
export const BENCH_PROVIDER = 'bench-upstream';
export const UPSTREAM_MODEL = 'gpt-bench-upstream';

const SYSTEM_PROMPT =
  'You are a helpful assistant for an internal engineering team. Answer concisely, prefer ' +
  'bullet points for lists, include short code examples when they help, and say so plainly ' +
  'when you do not know something. Never invent APIs that do not exist.';

const USER_PROMPT =
  'We run a fleet of worker services that consume jobs from a queue. Lately the p99 latency of ' +
  'job processing went from 200 ms to almost two seconds after we upgraded the runtime, while ' +
  'CPU usage stayed flat. Memory grows slowly over a day and then drops after a deploy. What ' +
  'should we look at first, which metrics would confirm or rule out garbage-collection pauses, ' +
  'and how would you structure a small experiment to compare the old and the new runtime under ' +
  'the same load? Please keep the answer practical.';

export function requestBody(stream: boolean, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    model: BENCH_MODEL,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: USER_PROMPT },
    ],
    temperature: 0.2,
    max_tokens: 512,
    stream,
    ...extra,
  });
}

const ANSWER_PIECES = [
  'Start by confirming where the time goes before changing anything in the fleet. ',
  'Compare event-loop delay (`monitorEventLoopDelay`) ',
  'with the job latency histogram: ',
  'if both rise together, the process is blocked, ',
  'not waiting on the queue or on a downstream service.\n\n',
  '- GC: enable `--trace-gc` on one worker ',
  'and chart pause times against p99; ',
  'long mark-compact pauses point to a growing old space.\n',
  '- Memory: take two heap snapshots an hour apart ',
  'and diff retained sizes by constructor; caches without a bound are the usual suspect.\n',
  '- Runtime: the new version may size the young generation differently; ',
  'try `--max-semi-space-size` at 16 and 64 MB.\n\n',
  'For the experiment, run two canaries side by side ',
  'on identical hosts, replay the same recorded jobs at a fixed rate, ',
  'and compare p50/p99, GC time per minute and RSS over two hours. ',
  'Change one flag at a time, record the exact versions and flags of both canaries, and keep each run long enough ',
  'to cover a full memory cycle, including at least one deploy-free period of several hours.',
];

const CREATED = 1_767_225_600;
const USAGE = { prompt_tokens: 187, completion_tokens: 214, total_tokens: 401 };

/** The non-streaming answer (~1.5 KB). */
export function completionJson(): string {
  return JSON.stringify({
    id: 'chatcmpl-bench0000000000000000000001',
    object: 'chat.completion',
    created: CREATED,
    model: UPSTREAM_MODEL,
    system_fingerprint: 'fp_bench01',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: ANSWER_PIECES.join(''), refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: {
      ...USAGE,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  });
}

function chunk(delta: Record<string, unknown>, finish: string | null, usage?: Record<string, unknown>): string {
  const body: Record<string, unknown> = {
    id: 'chatcmpl-bench0000000000000000000002',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: UPSTREAM_MODEL,
    system_fingerprint: 'fp_bench01',
    choices: usage === undefined ? [{ index: 0, delta, logprobs: null, finish_reason: finish }] : [],
  };
  if (usage !== undefined) body.usage = usage;
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** The streamed answer: role, 17 content deltas, finish, usage, then `[DONE]` (20 data events + DONE). */
export function sseEvents(): string[] {
  return [
    chunk({ role: 'assistant', content: '' }, null),
    ...ANSWER_PIECES.map((content) => chunk({ content }, null)),
    chunk({}, 'stop'),
    chunk({}, null, USAGE),
    'data: [DONE]\n\n',
  ];
}
