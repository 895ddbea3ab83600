import type { ChatRequestBody, NativeRequest } from '../../canonical/index.js';
import type { JsonRecord } from '../../canonical/json.js';
import { decodeResponsesRequest } from './request.js';
import { responsesTexts } from './texts.js';

/**
 * A `/responses` call: the client's Responses body, kept for candidates that speak Responses
 * (an `openai` or v1 `azure` provider with `native_responses: true`), beside its chat for every
 * other one.
 *
 * Stored responses stay the gateway's: the route has already replaced `previous_response_id`
 * and item references by the stored items, and the upstream is sent `store: false` (it keeps
 * nothing, so a key under zero data retention stays so, and a fallback between native and
 * translated candidates sees the same conversation). When the client left storing on, the
 * upstream is asked for `reasoning.encrypted_content`, so the reasoning items the gateway keeps
 * can be sent back statelessly on the next turn.
 */
export function responsesNative(client: JsonRecord, chat: ChatRequestBody): NativeRequest {
  return nativeOf(upstreamShape(client), chat);
}

function nativeOf(body: JsonRecord, chat: ChatRequestBody): NativeRequest {
  return {
    dialect: 'openai-responses',
    body,
    chat,
    untranslatable: null,
    texts: () => responsesTexts(body),
    with: (next) => nativeOf(next, decodeResponsesRequest(next).body),
  };
}

const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

function upstreamShape(client: JsonRecord): JsonRecord {
  const body: JsonRecord = { ...client };
  if (body.previous_response_id === null) delete body.previous_response_id;
  if (client.store !== false) {
    const include: unknown[] = Array.isArray(client.include) ? (client.include as unknown[]) : [];
    if (!include.includes(ENCRYPTED_REASONING)) body.include = [...include, ENCRYPTED_REASONING];
  }
  body.store = false;
  return body;
}
