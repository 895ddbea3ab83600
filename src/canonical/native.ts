import type { WireDialect } from '../wire/index.js';
import type { JsonRecord } from './json.js';
import type { ChatRequestBody } from './request-schema.js';

/**
 * Native pass-through: a call whose inbound dialect an upstream also speaks goes to it as the
 * client wrote it (every field kept), while the core still sees one canonical chat. The inbound
 * codec decodes the client's body once into that chat and keeps the body beside it here; per
 * attempt, a candidate that speaks `dialect` is sent `body`, any other the chat.
 */
export interface NativeRequest {
  readonly dialect: WireDialect;
  /** The client's body as written (preset merged and redactions applied, when any). */
  readonly body: JsonRecord;
  /** Its canonical chat: what a candidate that does not speak the dialect is sent. */
  readonly chat: ChatRequestBody;
  /**
   * Why the body has no chat translation (a 400 naming the field), or null. With a reason, `chat`
   * holds only the routing fields and the call goes to candidates that speak the dialect, or is
   * refused.
   */
  readonly untranslatable: Error | null;
  /** Every text of the body a model reads (screening, estimates), in order. */
  texts(): NativeTexts;
  /**
   * Folds a preset (a chat configuration and a system prompt) into the body, as the dialect says
   * it. Absent: the dialect has no such merge, and a call with a preset is sent translated.
   */
  readonly mergePreset?: (body: JsonRecord, preset: PresetFields) => JsonRecord;
  /** The same call for another body of this dialect (merged, redacted): decoded again. */
  with(body: JsonRecord): NativeRequest;
}

/** What a dialect's preset merge reads of a preset version. */
export interface PresetFields {
  readonly config: Readonly<Record<string, unknown>>;
  readonly systemPrompt: string;
}

/** Who wrote a text (content filters may treat roles differently). */
export type TextRole = 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'prompt';

export interface NativeTexts {
  segments: { role: TextRole; text: string }[];
  /** The body with the texts at these indexes replaced; untouched parts are shared. */
  withTexts(changes: readonly { index: number; text: string }[]): JsonRecord;
}

/** A client's body in a dialect the upstream speaks, `model` set to the upstream's, for one attempt. */
export interface NativeUpstreamRequest {
  readonly dialect: WireDialect;
  readonly body: JsonRecord;
}

/** One event of a native stream: its name (`event:`) and its JSON data, as the upstream sent them. */
export interface NativeEvent {
  event: string;
  data: JsonRecord;
  /**
   * `data` as JSON text, when it is known without serialising `data`: the upstream's own text
   * (when it came on one line and `data` is what it parsed to), or the text an encoder wrote
   * beside the event it built. Written to the client instead of serialising `data` again. Absent
   * on an event the gateway changed (a relabelled one), which is serialised.
   */
  text?: string;
}

/** What a native event's data is written as: the upstream's own text when it has one, else its JSON. */
export function nativeEventText(event: NativeEvent): string {
  return event.text ?? JSON.stringify(event.data);
}

/** A native answer beside its canonical reading: the upstream's body, written to the client as is (relabelled). */
export interface NativeAnswer {
  readonly dialect: WireDialect;
  readonly body: JsonRecord;
}

/** The native events a canonical chunk stands for: the client is written these (relabelled), not the chunk. */
export interface NativeEvents {
  readonly dialect: WireDialect;
  readonly events: NativeEvent[];
}
