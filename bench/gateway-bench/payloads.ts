/**
 * The bodies every target sees: one realistic request per API surface carrying the same
 * conversation (system + user message, ~1 KB, no PII so filters scan but redact nothing) and
 * the fake upstream's answers: a ~1.5 KB chat completion and a 20-event SSE stream whose last
 * data event carries usage (OpenAI format), or the same answer in Anthropic's Messages format.
 */
export const BENCH_MODEL = 'bench/gpt-bench';
export const BENCH_PROVIDER = 'bench-upstream';
export const UPSTREAM_MODEL = 'gpt-bench-upstream';
/** A model served by an Anthropic-format provider (the same fake upstream): Messages pass natively. */
export const BENCH_ANTHROPIC_MODEL = 'bench/claude-bench';
export const BENCH_ANTHROPIC_PROVIDER = 'bench-anthropic';
export const ANTHROPIC_UPSTREAM_MODEL = 'claude-bench-upstream';
/** A model served by a `kind: azure` provider (the same fake upstream at Azure's deployment URL). */
export const BENCH_AZURE_MODEL = 'bench/gpt-bench-azure';
export const BENCH_AZURE_PROVIDER = 'bench-azure';
export const AZURE_DEPLOYMENT = 'gpt-bench-deployment';

/** A model whose provider serves OpenAI's Responses API (`native_responses`): `/responses` calls pass natively. */
export const BENCH_RESPONSES_MODEL = 'bench/gpt-bench-responses';
export const BENCH_RESPONSES_PROVIDER = 'bench-responses';

export const SYSTEM_PROMPT =
  'You are a helpful assistant for an internal engineering team. Answer concisely, prefer ' +
  'bullet points for lists, include short code examples when they help, and say so plainly ' +
  'when you do not know something. Never invent APIs that do not exist.';

export const USER_PROMPT =
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

/**
 * The same conversation as Anthropic's SDKs send it to `POST /messages`: `system` as a text
 * block marked for prompt caching, the user turn as content blocks, `max_tokens` required.
 */
export function messagesRequestBody(stream: boolean, model: string = BENCH_MODEL): string {
  return JSON.stringify({
    model,
    max_tokens: 512,
    system: [{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: USER_PROMPT }] }],
    temperature: 0.2,
    stream,
  });
}

/**
 * The same conversation as OpenAI's SDKs send it to `POST /responses`: the system prompt as
 * `instructions`, the user turn as a message item with `input_text`, nothing stored.
 */
export function responsesRequestBody(stream: boolean, model = BENCH_MODEL): string {
  return JSON.stringify({
    model,
    instructions: SYSTEM_PROMPT,
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: USER_PROMPT }] }],
    temperature: 0.2,
    max_output_tokens: 512,
    store: false,
    stream,
  });
}

export const ANSWER_PIECES = [
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
export const USAGE = { prompt_tokens: 187, completion_tokens: 214, total_tokens: 401 };

/** A `user` for which the fake upstream answers the request body it received as the text. */
export const ECHO_USER = 'bench-echo';

/** The non-streaming answer (~1.5 KB), or one whose text is `content`. */
export function completionJson(content: string = ANSWER_PIECES.join('')): string {
  return JSON.stringify({
    id: 'chatcmpl-bench0000000000000000000001',
    object: 'chat.completion',
    created: CREATED,
    model: UPSTREAM_MODEL,
    system_fingerprint: 'fp_bench01',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
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

const ANTHROPIC_USAGE = { input_tokens: 187, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** The non-streaming answer in Anthropic's Messages format (the same text and token counts). */
export function anthropicMessageJson(): string {
  return JSON.stringify({
    id: 'msg_bench00000000000000000001',
    type: 'message',
    role: 'assistant',
    model: ANTHROPIC_UPSTREAM_MODEL,
    content: [{ type: 'text', text: ANSWER_PIECES.join('') }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { ...ANTHROPIC_USAGE, output_tokens: USAGE.completion_tokens },
  });
}

function anthropicEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * The streamed answer as Anthropic sends it: message_start, content_block_start, ping, 17 text
 * deltas, content_block_stop, message_delta (stop reason, output tokens), message_stop.
 */
export function anthropicSseEvents(): string[] {
  const message = {
    id: 'msg_bench00000000000000000002',
    type: 'message',
    role: 'assistant',
    model: ANTHROPIC_UPSTREAM_MODEL,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...ANTHROPIC_USAGE, output_tokens: 1 },
  };
  return [
    anthropicEvent('message_start', { message }),
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    anthropicEvent('ping', {}),
    ...ANSWER_PIECES.map((text) =>
      anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    ),
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: USAGE.completion_tokens },
    }),
    anthropicEvent('message_stop', {}),
  ];
}
