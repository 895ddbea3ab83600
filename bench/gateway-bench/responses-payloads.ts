import { ANSWER_PIECES, UPSTREAM_MODEL } from './payloads.js';

/** The bench answer in OpenAI's Responses format (the same text and token counts as the chat answer). */

const CREATED = 1_767_225_600;
const USAGE = {
  input_tokens: 187,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 214,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 401,
};
const TEXT = ANSWER_PIECES.join('');

function response(status: string, output: unknown[], usage: unknown): Record<string, unknown> {
  return {
    id: 'resp_bench0000000000000000000001',
    object: 'response',
    created_at: CREATED,
    status,
    model: UPSTREAM_MODEL,
    output,
    parallel_tool_calls: true,
    store: false,
    temperature: 0.2,
    tools: [],
    usage,
  };
}

const MESSAGE = {
  id: 'msg_bench0000000000000000000001',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: TEXT, annotations: [] }],
};

/** The non-streaming answer. */
export function responsesJson(): string {
  return JSON.stringify(response('completed', [MESSAGE], USAGE));
}

/**
 * The streamed answer as OpenAI sends it: created, in_progress, the message item and its text
 * part opened, 17 text deltas, the part and the item done, completed with usage (25 events).
 */
export function responsesSseEvents(): string[] {
  const item = MESSAGE.id;
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: response('in_progress', [], null) },
    { type: 'response.in_progress', response: response('in_progress', [], null) },
    { type: 'response.output_item.added', output_index: 0, item: { ...MESSAGE, status: 'in_progress', content: [] } },
    {
      type: 'response.content_part.added',
      item_id: item,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    },
    ...ANSWER_PIECES.map((delta) => ({
      type: 'response.output_text.delta',
      item_id: item,
      output_index: 0,
      content_index: 0,
      delta,
    })),
    { type: 'response.output_text.done', item_id: item, output_index: 0, content_index: 0, text: TEXT },
    { type: 'response.content_part.done', item_id: item, output_index: 0, content_index: 0, part: MESSAGE.content[0] },
    { type: 'response.output_item.done', output_index: 0, item: MESSAGE },
    { type: 'response.completed', response: response('completed', [MESSAGE], USAGE) },
  ];
  return events.map(
    (e, sequence_number) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number })}\n\n`,
  );
}
