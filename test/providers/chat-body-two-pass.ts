/**
 * The upstream chat body as it was built before the one-pass builder: the request copied into one
 * record (`baseBody`: extras, typed fields over them, model, stream), `stream_options` set or
 * deleted, then that record cut to OpenAI's declared fields. Kept as the reference the one-pass
 * builder must match byte for byte (chat-body-order.test.ts) and as the baseline of
 * bench/chat-body-bench.ts.
 */
import type { CanonicalChatRequest } from '../../src/canonical/index.js';
import { isRecord, type JsonRecord } from '../../src/canonical/json.js';
import { OPENAI_CHAT_FIELDS } from '../../src/wire/openai-chat/outbound/declaration.js';
import { effortOf, outboundMessage, outboundTools } from '../../src/wire/openai-chat/outbound/declared-body.js';
import { baseBody } from '../../src/wire/openai-chat/outbound/request.js';

const ALLOWED: ReadonlySet<string> = new Set(OPENAI_CHAT_FIELDS);

function cutToDeclared(body: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body)) if (ALLOWED.has(key) && value !== undefined) out[key] = value;
  if (Array.isArray(body.messages))
    out.messages = body.messages.map(outboundMessage).filter((m): m is JsonRecord => m !== null);
  const effort = effortOf(body.reasoning_effort, body.reasoning);
  if (effort !== undefined) out.reasoning_effort = effort;
  else delete out.reasoning_effort;
  if (body.tools !== undefined) {
    const tools = outboundTools(body.tools);
    if (tools.length > 0) out.tools = tools;
    else {
      delete out.tools;
      delete out.tool_choice;
      delete out.parallel_tool_calls;
    }
  }
  return out;
}

export function twoPassChatBody(req: CanonicalChatRequest, stream: boolean): JsonRecord {
  const extra = req.extra;
  const body = baseBody(req, stream);
  if (stream) {
    const current = isRecord(extra.stream_options) ? extra.stream_options : {};
    body.stream_options = { ...current, include_usage: true };
  } else {
    delete body.stream_options;
  }
  return cutToDeclared(body);
}
