import type { Json } from '../fake-upstream/json.js';
import { scriptStop, scriptText, type CloudScript, type StopScript } from './script.js';

/** A script in Anthropic's Messages format: what Claude on Bedrock and on Vertex answers. */
const ANTHROPIC_STOPS: Record<StopScript, string> = {
  end: 'end_turn',
  max_tokens: 'max_tokens',
  tool_use: 'tool_use',
  stop_sequence: 'stop_sequence',
  content_filter: 'refusal',
  safety: 'refusal',
};

export function anthropicStop(stop: StopScript): string {
  return ANTHROPIC_STOPS[stop];
}

function usage(s: CloudScript): Json {
  return {
    input_tokens: s.usage.input,
    cache_creation_input_tokens: s.usage.cacheWrite,
    cache_read_input_tokens: s.usage.cacheRead,
    output_tokens: s.usage.output,
  };
}

function blocks(s: CloudScript): Json[] {
  const out: Json[] = [];
  if (s.thinking !== null) out.push({ type: 'thinking', thinking: s.thinking.text, signature: s.thinking.signature });
  if (s.pieces.length > 0) out.push({ type: 'text', text: scriptText(s) });
  for (const call of s.toolCalls) out.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  return out;
}

export function anthropicMessage(s: CloudScript, model: string, id: string): Json {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: blocks(s),
    stop_reason: anthropicStop(scriptStop(s)),
    stop_sequence: scriptStop(s) === 'stop_sequence' ? 'END' : null,
    usage: usage(s),
  };
}

/** The stream's events (each one's `type` is also its SSE event name). */
export function anthropicEvents(s: CloudScript, model: string, id: string): Json[] {
  const events: Json[] = [
    {
      type: 'message_start',
      message: {
        ...anthropicMessage(s, model, id),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage(s), output_tokens: 1 },
      },
    },
  ];
  let index = 0;
  if (s.thinking !== null) {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: s.thinking.text } });
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'signature_delta', signature: s.thinking.signature },
    });
    events.push({ type: 'content_block_stop', index: index++ });
  }
  if (s.pieces.length > 0) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const piece of s.pieces)
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    events.push({ type: 'content_block_stop', index: index++ });
  }
  for (const call of s.toolCalls) {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    const json = JSON.stringify(call.input);
    const half = Math.floor(json.length / 2);
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: json.slice(0, half) },
    });
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: json.slice(half) },
    });
    events.push({ type: 'content_block_stop', index: index++ });
  }
  const stop = scriptStop(s);
  events.push({
    type: 'message_delta',
    delta: { stop_reason: anthropicStop(stop), stop_sequence: stop === 'stop_sequence' ? 'END' : null },
    usage: { output_tokens: s.usage.output },
  });
  events.push({ type: 'message_stop' });
  return events;
}

/** Anthropic's error body. */
export function anthropicErrorBody(type: string, message: string): Json {
  return { type: 'error', error: { type, message } };
}

/** The checks the platform makes on a Messages body (as a clear 400 message), or null. */
export function anthropicBodyProblem(body: Json | null, version: string): string | null {
  if (body === null) return 'Malformed input request: expected a JSON object';
  // The platform's own version string; Anthropic's SDKs of this generation send their dated API version instead.
  const given = body.anthropic_version;
  if (given !== version && !(typeof given === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(given))) {
    return `anthropic_version: must be '${version}'`;
  }
  if ('model' in body) return 'model: Extra inputs are not permitted';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  if (
    body.anthropic_beta !== undefined &&
    !(Array.isArray(body.anthropic_beta) && body.anthropic_beta.every((b) => typeof b === 'string'))
  ) {
    return 'anthropic_beta: Input should be a valid list of strings';
  }
  return null;
}
