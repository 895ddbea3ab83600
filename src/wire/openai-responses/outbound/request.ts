import type { JsonRecord } from '../../../canonical/json.js';
import { OPENAI_RESPONSES_FIELDS } from './declaration.js';

const ALLOWED: ReadonlySet<string> = new Set(OPENAI_RESPONSES_FIELDS);

/**
 * A Responses body as an upstream that speaks Responses gets it: the client's fields OpenAI
 * declares (declaration.ts), in the client's order, `stream` set for this call; anything else
 * is dropped, never forwarded. The body encoding only: where it goes and with which credential
 * is the adapter's target (OpenAI's and Azure's differ).
 */
export function responsesUpstreamBody(body: JsonRecord, stream: boolean): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body)) if (ALLOWED.has(key) && value !== undefined) out[key] = value;
  out.stream = stream;
  return out;
}
