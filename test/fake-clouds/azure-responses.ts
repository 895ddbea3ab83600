import type { Json } from '../fake-upstream/json.js';
import { scriptText, type CloudScript } from './script.js';

/**
 * Azure OpenAI's Responses API (`POST /openai/v1/responses`, the v1 API only): OpenAI's response
 * object and typed stream events, the deployment named by the body's `model`. Strict like Azure:
 * `input` is required (a string or an array of items), chat's `messages` is refused.
 */

const CREATED = 1_700_000_000;
const RESPONSE_ID = 'resp_azure_fake0001';
const ITEM_ID = 'msg_azure_fake0001';

/** Why Azure would refuse this Responses body (its 400 message), or null. */
export function responsesProblem(body: Json): string | null {
  if (typeof body.model !== 'string' || body.model === '') return "Missing required parameter: 'model'.";
  if ('messages' in body) return "Unsupported parameter: 'messages'. In the Responses API, use 'input'.";
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) return "Missing required parameter: 'input'.";
  if ('stream' in body && typeof body.stream !== 'boolean') return "Invalid type for 'stream': expected a boolean.";
  return null;
}

function usage(s: CloudScript): Json {
  return {
    input_tokens: s.usage.input,
    input_tokens_details: { cached_tokens: s.usage.cacheRead },
    output_tokens: s.usage.output,
    output_tokens_details: { reasoning_tokens: s.usage.reasoning },
    total_tokens: s.usage.input + s.usage.output,
  };
}

function message(s: CloudScript): Json {
  return {
    id: ITEM_ID,
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: scriptText(s), annotations: [] }],
  };
}

function response(s: CloudScript, body: Json, status: 'in_progress' | 'completed'): Json {
  return {
    id: RESPONSE_ID,
    object: 'response',
    created_at: CREATED,
    status,
    model: body.model,
    output: status === 'completed' ? [message(s)] : [],
    instructions: body.instructions ?? null,
    tools: body.tools ?? [],
    store: body.store ?? true,
    metadata: body.metadata ?? {},
    usage: status === 'completed' ? usage(s) : null,
    content_filters: null,
  };
}

export function azureResponse(s: CloudScript, body: Json): Json {
  return response(s, body, 'completed');
}

/** The stream's events, numbered, each as `{type, …}` (sent with `event: <type>`). */
export function azureResponseEvents(s: CloudScript, body: Json): Json[] {
  const text = scriptText(s);
  const at = { item_id: ITEM_ID, output_index: 0, content_index: 0 };
  const events: Json[] = [
    { type: 'response.created', response: response(s, body, 'in_progress') },
    { type: 'response.in_progress', response: response(s, body, 'in_progress') },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...message(s), status: 'in_progress', content: [] },
    },
    { type: 'response.content_part.added', ...at, part: { type: 'output_text', text: '', annotations: [] } },
    ...s.pieces.map((delta) => ({ type: 'response.output_text.delta', ...at, delta })),
    { type: 'response.output_text.done', ...at, text },
    { type: 'response.content_part.done', ...at, part: { type: 'output_text', text, annotations: [] } },
    { type: 'response.output_item.done', output_index: 0, item: message(s) },
    { type: 'response.completed', response: response(s, body, 'completed') },
  ];
  return events.map((e, sequence_number) => ({ ...e, sequence_number }));
}
