import type { ServerResponse } from 'node:http';
import {
  FAKE_CACHE,
  FAKE_CREATED,
  FAKE_PIECES,
  FAKE_TEXT,
  FAKE_TOOL_ARG_PIECES,
  FAKE_TOOL_ARGS,
  FAKE_USAGE,
  type FakeBehaviour,
} from './behaviour.js';
import type { Json } from './json.js';

/** OpenAI chat-completions / completions wire format (JSON, SSE, error bodies). */

export function openAiError(status: number, apiKey: string | null): Json {
  switch (status) {
    case 400:
      return {
        error: {
          message: "Invalid value for 'temperature': expected a number.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: null,
        },
      };
    case 401:
      return {
        error: {
          message: `Incorrect API key provided: ${apiKey ?? '(none)'}.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      };
    case 429:
      return {
        error: {
          message: 'Rate limit reached for requests',
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
      };
    case 503:
      return {
        error: {
          message: 'The engine is currently overloaded, please try again later',
          type: 'server_error',
          param: null,
          code: null,
        },
      };
    default:
      return {
        error: {
          message: 'The server had an error while processing your request.',
          type: 'server_error',
          param: null,
          code: null,
        },
      };
  }
}

function toolName(body: Json): string {
  const tools = body.tools;
  if (Array.isArray(tools)) {
    const first: unknown = tools[0];
    if (typeof first === 'object' && first !== null) {
      const fn = (first as Json).function;
      if (typeof fn === 'object' && fn !== null && typeof (fn as Json).name === 'string')
        return (fn as Json).name as string;
    }
  }
  return 'get_weather';
}

function usage(b: FakeBehaviour): Json {
  return b.cache ? { ...FAKE_USAGE, prompt_tokens_details: { cached_tokens: FAKE_CACHE.read } } : { ...FAKE_USAGE };
}

export function chatJson(body: Json, b: FakeBehaviour): Json {
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const message: Json = b.toolCall
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_fake_1', type: 'function', function: { name: toolName(body), arguments: FAKE_TOOL_ARGS } },
        ],
      }
    : { role: 'assistant', content: FAKE_TEXT };
  const out: Json = {
    id: 'chatcmpl-fake-1',
    object: 'chat.completion',
    created: FAKE_CREATED,
    model,
    choices: [{ index: 0, message, finish_reason: b.toolCall ? 'tool_calls' : 'stop', logprobs: null }],
    system_fingerprint: 'fp_fake',
  };
  if (!b.noUsage) out.usage = usage(b);
  return out;
}

/** The SSE `data:` payloads of a chat stream (without the final [DONE]). */
export function chatEvents(body: Json, b: FakeBehaviour): Json[] {
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const base = {
    id: 'chatcmpl-fake-1',
    object: 'chat.completion.chunk',
    created: FAKE_CREATED,
    model,
    system_fingerprint: 'fp_fake',
  };
  const events: Json[] = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
  ];
  if (b.toolCall) {
    events.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 0, id: 'call_fake_1', type: 'function', function: { name: toolName(body), arguments: '' } },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    for (const piece of FAKE_TOOL_ARG_PIECES) {
      events.push({
        ...base,
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] }, finish_reason: null },
        ],
      });
    }
  } else {
    for (const piece of FAKE_PIECES)
      events.push({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }
  if (!b.noFinish)
    events.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: b.toolCall ? 'tool_calls' : 'stop' }] });
  const opts = body.stream_options;
  const wantsUsage = typeof opts === 'object' && opts !== null && (opts as Json).include_usage === true;
  if (wantsUsage && !b.noUsage) events.push({ ...base, choices: [], usage: usage(b) });
  return events;
}

export function midStreamErrorEvent(): Json {
  return {
    error: {
      code: 502,
      message: 'Upstream model crashed',
      metadata: { error_type: 'provider_unavailable', provider_code: 'fake_crash' },
    },
    choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
  };
}

export function completionJson(body: Json, b: FakeBehaviour): Json {
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const out: Json = {
    id: 'cmpl-fake-1',
    object: 'text_completion',
    created: FAKE_CREATED,
    model,
    choices: [{ text: FAKE_TEXT, index: 0, finish_reason: 'stop', logprobs: null }],
  };
  if (!b.noUsage) out.usage = usage(b);
  return out;
}

export function completionEvents(body: Json, b: FakeBehaviour): Json[] {
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const base = { id: 'cmpl-fake-1', object: 'text_completion', created: FAKE_CREATED, model };
  const events: Json[] = FAKE_PIECES.map((text) => ({
    ...base,
    choices: [{ text, index: 0, finish_reason: null, logprobs: null }],
  }));
  events.push({ ...base, choices: [{ text: '', index: 0, finish_reason: 'stop', logprobs: null }] });
  if (!b.noUsage) events.push({ ...base, choices: [], usage: usage(b) });
  return events;
}

export function writeOpenAiEvent(res: ServerResponse, payload: Json | '[DONE]'): void {
  res.write(`data: ${payload === '[DONE]' ? payload : JSON.stringify(payload)}\n\n`);
}
