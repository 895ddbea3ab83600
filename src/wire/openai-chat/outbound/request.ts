import type { CanonicalChatRequest, CanonicalCompletionRequest } from '../../../canonical/index.js';
import type { JsonRecord } from '../../../canonical/json.js';
import { openAiChatBody, openAiCompletionBody } from './declared-body.js';

/**
 * `{ ...extra, ...(req's defined fields but extra), model, stream }` in one pass (no rest copy of
 * the request, no entries array): same keys, same order, same JSON.
 */
export function baseBody(req: CanonicalChatRequest | CanonicalCompletionRequest, stream: boolean): JsonRecord {
  const body: JsonRecord = { ...req.extra };
  const typed = req as unknown as JsonRecord;
  for (const key of Object.keys(typed)) {
    if (key === 'extra') continue;
    const value = typed[key];
    if (value !== undefined) body[key] = value;
  }
  body.model = req.model;
  body.stream = stream;
  return body;
}

/**
 * The upstream body: the client's fields (extras first, typed fields over them), cut to what
 * OpenAI's chat API accepts, in one pass (declared-body.ts).
 */
export function chatBody(req: CanonicalChatRequest, stream: boolean): JsonRecord {
  return openAiChatBody(req, stream);
}

export function completionBody(req: CanonicalCompletionRequest, stream: boolean): JsonRecord {
  const body = baseBody(req, stream);
  if (stream) body.stream_options = { include_usage: true };
  else delete body.stream_options;
  return openAiCompletionBody(body);
}
