import type { JsonRecord } from './json.js';
import type { MessagesRequestBody } from './messages-request-schema.js';
import type { CanonicalUsage } from './usage.js';

/** One server-sent event of the Messages stream: `event: <name>` and its JSON `data`. */
export interface MessagesEvent {
  event: string;
  data: JsonRecord;
}

/** A Messages call for one upstream: the client's body with `model` set to the upstream's. */
export interface MessagesCallRequest {
  body: MessagesRequestBody;
  /** The call's body before `model` was set: its chat translation is decoded once per call. */
  prepared?: MessagesRequestBody;
}

/**
 * The answer of a Messages call: the Messages JSON (native, or encoded from a chat answer) with
 * the fields the gateway relabels and meters beside it.
 */
export interface MessagesCallAnswer {
  id: string;
  model: string;
  usage: CanonicalUsage;
  message: JsonRecord;
  finish: { reason: string | null; native: string | null };
}

/** One step of a Messages stream: the events to send, and what the gateway reads from them. */
export interface MessagesCallChunk {
  id: string;
  model: string;
  /** The whole usage so far, when these events reported it. */
  usage?: CanonicalUsage;
  events: MessagesEvent[];
  /** The canonical finish reason, on the step that ends the message. */
  finish?: string | null;
  /** Text these events streamed (for a usage estimate when the upstream reports none). */
  text?: string;
}
