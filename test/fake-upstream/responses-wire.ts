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

/**
 * OpenAI's Responses API wire format (`POST /v1/responses`): a response object, or its typed
 * stream events (`event: <type>` with the event as data, numbered). It echoes the request's
 * configuration (tools, hosted ones included; include; store) as OpenAI does; asked for
 * `reasoning.encrypted_content`, its output starts with a reasoning item carrying some.
 */

export interface ResponsesEvent {
  event: string;
  data: Json;
}

const RESPONSE_ID = 'resp_fake_1';
export const FAKE_REASONING = 'encrypted-reasoning-fake';

function functionName(body: Json): string {
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  for (const tool of tools)
    if (typeof tool === 'object' && tool !== null && (tool as Json).type === 'function')
      return String((tool as Json).name);
  return 'get_weather';
}

function usage(b: FakeBehaviour): Json {
  return {
    input_tokens: FAKE_USAGE.prompt_tokens,
    input_tokens_details: { cached_tokens: b.cache ? FAKE_CACHE.read : 0 },
    output_tokens: FAKE_USAGE.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: FAKE_USAGE.total_tokens,
  };
}

function wantsReasoning(body: Json): boolean {
  return Array.isArray(body.include) && (body.include as unknown[]).includes('reasoning.encrypted_content');
}

function outputItems(body: Json, b: FakeBehaviour): Json[] {
  const items: Json[] = [];
  if (wantsReasoning(body))
    items.push({ id: 'rs_fake_1', type: 'reasoning', summary: [], encrypted_content: FAKE_REASONING });
  if (b.toolCall)
    items.push({
      id: 'fc_fake_1',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_fake_1',
      name: functionName(body),
      arguments: FAKE_TOOL_ARGS,
    });
  else
    items.push({
      id: 'msg_fake_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: FAKE_TEXT, annotations: [] }],
    });
  return items;
}

function response(body: Json, b: FakeBehaviour, status: string, output: Json[]): Json {
  const out: Json = {
    id: RESPONSE_ID,
    object: 'response',
    created_at: FAKE_CREATED,
    status,
    model: typeof body.model === 'string' ? body.model : 'unknown',
    output,
    instructions: body.instructions ?? null,
    tools: body.tools ?? [],
    store: body.store ?? true,
    metadata: body.metadata ?? {},
    usage: null,
  };
  if (status === 'completed' && !b.noUsage) out.usage = usage(b);
  return out;
}

export function responsesJson(body: Json, b: FakeBehaviour): Json {
  return response(body, b, 'completed', outputItems(body, b));
}

export function responsesEvents(body: Json, b: FakeBehaviour): ResponsesEvent[] {
  const events: Json[] = [];
  events.push({ type: 'response.created', response: response(body, b, 'in_progress', []) });
  events.push({ type: 'response.in_progress', response: response(body, b, 'in_progress', []) });
  const items = outputItems(body, b);
  items.forEach((item, output_index) => {
    events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress' } });
    if (item.type === 'message') {
      const part = { type: 'output_text', text: '', annotations: [] };
      events.push({ type: 'response.content_part.added', item_id: item.id, output_index, content_index: 0, part });
      for (const delta of FAKE_PIECES)
        events.push({ type: 'response.output_text.delta', item_id: item.id, output_index, content_index: 0, delta });
      events.push({
        type: 'response.output_text.done',
        item_id: item.id,
        output_index,
        content_index: 0,
        text: FAKE_TEXT,
      });
    } else if (item.type === 'function_call') {
      for (const delta of FAKE_TOOL_ARG_PIECES)
        events.push({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta });
      events.push({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index,
        arguments: FAKE_TOOL_ARGS,
      });
    }
    events.push({ type: 'response.output_item.done', output_index, item });
  });
  events.push({ type: 'response.completed', response: response(body, b, 'completed', items) });
  return events.map((data, sequence_number) => ({ event: String(data.type), data: { ...data, sequence_number } }));
}

export function responsesMidStreamError(): ResponsesEvent {
  return {
    event: 'error',
    data: {
      type: 'error',
      code: 'server_error',
      message: 'The server had an error while processing your request.',
      param: null,
    },
  };
}

export function writeResponsesEvent(res: ServerResponse, e: ResponsesEvent): void {
  res.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
}
