import type { Json } from '../fake-upstream/json.js';
import {
  estimateTokens,
  fakeVector,
  scriptStop,
  scriptText,
  type CloudScript,
  type FailureScript,
  type StopScript,
} from './script.js';

/** Azure OpenAI's chat completions: OpenAI's shape plus content-filter annotations. */
const AZURE_FINISHES: Record<StopScript, string> = {
  end: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  stop_sequence: 'stop',
  content_filter: 'content_filter',
  safety: 'content_filter',
};

export function azureFinish(stop: StopScript): string {
  return AZURE_FINISHES[stop];
}

const SAFE = { filtered: false, severity: 'safe' };
function filterResults(filtered: boolean): Json {
  return {
    hate: SAFE,
    self_harm: SAFE,
    sexual: SAFE,
    violence: filtered ? { filtered: true, severity: 'high' } : SAFE,
  };
}
export const PROMPT_FILTER_RESULTS = [{ prompt_index: 0, content_filter_results: filterResults(false) }];

function usage(s: CloudScript): Json {
  return {
    prompt_tokens: s.usage.input,
    completion_tokens: s.usage.output,
    total_tokens: s.usage.input + s.usage.output,
    prompt_tokens_details: { cached_tokens: s.usage.cacheRead },
    completion_tokens_details: { reasoning_tokens: s.usage.reasoning },
  };
}

function toolCalls(s: CloudScript): Json[] {
  return s.toolCalls.map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: JSON.stringify(c.input) },
  }));
}

const CREATED = 1_700_000_000;

export function azureChat(s: CloudScript, model: string): Json {
  const finish = azureFinish(scriptStop(s));
  const filtered = finish === 'content_filter';
  const message: Json = { role: 'assistant', content: filtered ? null : scriptText(s), refusal: null };
  if (s.toolCalls.length > 0) message.tool_calls = toolCalls(s);
  return {
    id: 'chatcmpl-azurefake0001',
    object: 'chat.completion',
    created: CREATED,
    model,
    system_fingerprint: 'fp_fake',
    prompt_filter_results: PROMPT_FILTER_RESULTS,
    choices: [
      { index: 0, finish_reason: finish, logprobs: null, message, content_filter_results: filterResults(filtered) },
    ],
    usage: usage(s),
  };
}

/** The stream's chunks: first the prompt's filter results (no choices), usage last when asked for. */
export function azureChunks(s: CloudScript, model: string, includeUsage: boolean): Json[] {
  const base = {
    id: 'chatcmpl-azurefake0001',
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    system_fingerprint: 'fp_fake',
  };
  const chunk = (delta: Json, finish: string | null = null, filtered = false): Json => ({
    ...base,
    choices: [
      {
        index: 0,
        delta,
        finish_reason: finish,
        logprobs: null,
        content_filter_results: finish === null || filtered ? filterResults(filtered) : {},
      },
    ],
  });
  const finish = azureFinish(scriptStop(s));
  const chunks: Json[] = [
    { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: PROMPT_FILTER_RESULTS },
  ];
  chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
  if (finish !== 'content_filter') for (const piece of s.pieces) chunks.push(chunk({ content: piece }));
  toolCalls(s).forEach((call, index) => chunks.push(chunk({ tool_calls: [{ index, ...call }] })));
  chunks.push(chunk({}, finish, finish === 'content_filter'));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: usage(s) });
  return chunks;
}

/** Embeddings, as floats or (what the openai SDK asks for by default) base64 little-endian float32. */
export function azureEmbeddings(body: Json, model: string): Json | null {
  const input = body.input;
  const texts =
    typeof input === 'string'
      ? [input]
      : Array.isArray(input) && input.every((t) => typeof t === 'string')
        ? input
        : null;
  if (texts === null || texts.length === 0) return null;
  const dims = typeof body.dimensions === 'number' ? body.dimensions : 1536;
  const tokens = texts.reduce((n, t) => n + estimateTokens(t), 0);
  const data = texts.map((t, index) => {
    const vector = fakeVector(t, dims);
    const embedding =
      body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    return { object: 'embedding', index, embedding };
  });
  return { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

export interface AzureError {
  status: number;
  body: Json;
  headers: Record<string, string>;
}

export function azureError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): AzureError {
  return { status, body: { error: { code, message } }, headers };
}

export function scriptedAzureError(fail: FailureScript, apiVersion: string): AzureError {
  switch (fail) {
    case 'throttle':
      return azureError(
        429,
        '429',
        `Requests to the ChatCompletions_Create Operation under Azure OpenAI API version ${apiVersion} have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 2 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.`,
        {
          'retry-after': '2',
          'retry-after-ms': '2000',
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-remaining-tokens': '0',
        },
      );
    case 'validation':
      return azureError(
        400,
        'context_length_exceeded',
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.",
      );
    case 'auth':
      return azureError(
        401,
        '401',
        'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      );
    case 'server':
      return azureError(
        500,
        'InternalServerError',
        'The server had an error while processing your request. Sorry about that!',
      );
    case 'prompt_filter':
      return {
        status: 400,
        headers: {},
        body: {
          error: {
            message:
              "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
            type: null,
            param: 'prompt',
            code: 'content_filter',
            status: 400,
            innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: filterResults(true) },
          },
        },
      };
  }
}
