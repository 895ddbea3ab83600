import type { ServerResponse } from 'node:http';
import {
  FAKE_CACHE,
  FAKE_PIECES,
  FAKE_TEXT,
  FAKE_TOOL_ARG_PIECES,
  FAKE_USAGE,
  type FakeBehaviour,
} from './behaviour.js';
import type { Json } from './json.js';

/** Anthropic Messages API wire format (JSON, SSE events, error bodies). */

const ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'temperature: range exceeded'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'model: not found'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
  529: ['overloaded_error', 'Overloaded'],
};

export function anthropicError(status: number): Json {
  const [type, message] = ERROR_TYPES[status] ?? ['api_error', 'Internal server error'];
  return { type: 'error', error: { type, message } };
}

function toolName(body: Json): string {
  const tools = body.tools;
  if (Array.isArray(tools) && typeof tools[0] === 'object' && tools[0] !== null) {
    const name = (tools[0] as Json).name;
    if (typeof name === 'string') return name;
  }
  return 'get_weather';
}

function usage(b: FakeBehaviour, output: number): Json {
  // input_tokens excludes cache reads/writes, so prompt_tokens stays FAKE_USAGE.prompt_tokens in total.
  return b.cache
    ? {
        input_tokens: FAKE_USAGE.prompt_tokens - FAKE_CACHE.read - FAKE_CACHE.write,
        output_tokens: output,
        cache_read_input_tokens: FAKE_CACHE.read,
        cache_creation_input_tokens: FAKE_CACHE.write,
      }
    : {
        input_tokens: FAKE_USAGE.prompt_tokens,
        output_tokens: output,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      };
}

export function messagesJson(body: Json, b: FakeBehaviour): Json {
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const content = b.toolCall
    ? [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_fake_1', name: toolName(body), input: { city: 'Paris' } },
      ]
    : [{ type: 'text', text: FAKE_TEXT }];
  return {
    id: 'msg_fake_1',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: b.toolCall ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: usage(b, FAKE_USAGE.completion_tokens),
  };
}

export interface AnthropicEvent {
  event: string;
  data: Json;
}

export function messagesEvents(body: Json, b: FakeBehaviour): AnthropicEvent[] {
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const ev = (event: string, data: Json): AnthropicEvent => ({ event, data: { type: event, ...data } });
  const events: AnthropicEvent[] = [
    ev('message_start', {
      message: {
        id: 'msg_fake_1',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usage(b, 1),
      },
    }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ev('ping', {}),
  ];
  if (b.toolCall) {
    events.push(ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Let me check.' } }));
    events.push(ev('content_block_stop', { index: 0 }));
    events.push(
      ev('content_block_start', {
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_fake_1', name: toolName(body), input: {} },
      }),
    );
    for (const piece of FAKE_TOOL_ARG_PIECES)
      events.push(ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: piece } }));
    events.push(ev('content_block_stop', { index: 1 }));
  } else {
    for (const text of FAKE_PIECES)
      events.push(ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
    events.push(ev('content_block_stop', { index: 0 }));
  }
  events.push(
    ev('message_delta', {
      delta: { stop_reason: b.toolCall ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: FAKE_USAGE.completion_tokens },
    }),
  );
  events.push(ev('message_stop', {}));
  return events;
}

export function midStreamErrorEvent(): AnthropicEvent {
  return { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
}

export function writeAnthropicEvent(res: ServerResponse, e: AnthropicEvent): void {
  res.write(`event: ${e.event}\r\ndata: ${JSON.stringify(e.data)}\r\n\r\n`);
}
