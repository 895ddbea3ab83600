import { makeUsage, nativeEventText, type AcceptedCall, type CanonicalUsage } from '../../canonical/index.js';
import { isRecord, type JsonRecord } from '../../canonical/json.js';
import type { GatewayError } from '../../errors/index.js';
import { responsesNative } from './native-request.js';
import type { Codec, EventWriter } from '../codec.js';
import { decodeResponsesRequest } from './request.js';
import { encodeResponse, type ResponseContext } from './response.js';
import type { ResponsesRequestBody } from './schema.js';
import { ResponsesStreamEncoder, type ResponsesStreamEvent } from './stream.js';
import { encodeReasoning, StreamedReasoning, withEncryptedReasoning } from './reasoning-state.js';
import { restoreEvents, restoreItem } from './tool-calls-out.js';
import type { ToolNames } from './tools.js';
import type { ResponseEcho, ResponseObject } from './wire.js';

/** Native events that end a stream with a response worth keeping. */
const COMPLETE: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete']);

function write(
  writer: EventWriter,
  encoder: ResponsesStreamEncoder,
  events: readonly ResponsesStreamEvent[],
): Promise<void> | undefined {
  let drained: Promise<void> | undefined;
  for (const event of events) drained = writer.event(event.type, encoder.json(event)) ?? drained;
  return drained;
}

/** What the route decided about keeping the response. */
export interface ResponsesCodecOptions {
  /** The response is kept: `onResponse` gets it once complete. */
  store?: boolean;
  /** Metadata entries the response adds (why it was not kept). */
  note?: Record<string, string>;
  onResponse?: (response: ResponseObject) => void;
}

/**
 * `POST /responses`, decoded to a chat. One codec per request: it keeps what the response
 * object repeats of the request, and the stream's state (items, sequence numbers, usage).
 */
export function responsesCodec(options: ResponsesCodecOptions = {}): Codec<'chat', ResponsesRequestBody> {
  const createdAt = Math.floor(Date.now() / 1000);
  let echo: ResponseEcho | null = null;
  let encoder: ResponsesStreamEncoder | null = null;
  let usage: (CanonicalUsage & { cost?: number | null }) | null = null;
  let failed = false;
  let toolNames: ToolNames = new Map();
  const customCalls = new Set<string>();
  const reasoning = new StreamedReasoning();
  /** A native stream: the upstream's events are written as they come, its own completion included. */
  let native = false;
  /**
   * A native response as the client sees it: the generation id and the catalog slug (the one
   * relabelling), whether the gateway kept it (the upstream never does), and the route's note.
   */
  const relabelled = (response: JsonRecord, id: string, model: string): JsonRecord => {
    const out: JsonRecord = { ...response, id, model, store: options.store === true };
    if (options.note !== undefined)
      out.metadata = { ...(isRecord(response.metadata) ? response.metadata : {}), ...options.note };
    return out;
  };
  const context = (id: string, model: string, provider: string | undefined): ResponseContext => {
    const ctx: ResponseContext = { id, model, createdAt, echo: echo ?? decodeResponsesRequest({ input: '' }).echo };
    if (options.store === true) ctx.store = true;
    if (provider !== undefined) ctx.provider = provider;
    return ctx;
  };
  return {
    apiType: 'responses',
    decode(body) {
      const decoded = decodeResponsesRequest(body);
      echo = decoded.echo;
      if (options.note !== undefined) echo.metadata = { ...echo.metadata, ...options.note };
      toolNames = decoded.toolNames;
      return { kind: 'chat', body: decoded.body, native: responsesNative(body, decoded.body) };
    },
    answer(value) {
      if (value.native?.dialect === 'openai-responses') {
        const response = relabelled(value.native.body, value.id, value.model);
        if (response.status !== 'failed') options.onResponse?.(response as unknown as ResponseObject);
        return response;
      }
      const first = value.choices[0];
      const response = encodeResponse(
        {
          message: first?.message ?? { role: 'assistant', content: '', refusal: null },
          finishReason: first?.finish_reason ?? null,
          usage: value.usage,
          cost: value.usage.cost ?? null,
        },
        context(value.id, value.model, value.provider),
      );
      response.output = withEncryptedReasoning(
        response.output.map((item) => restoreItem(item, toolNames)),
        encodeReasoning(first?.message.reasoning_details ?? []),
      );
      if (response.status !== 'failed') options.onResponse?.(response);
      return response;
    },
    chunk(writer, chunk) {
      if (chunk.native?.dialect === 'openai-responses') {
        native = true;
        let drained: Promise<void> | undefined;
        for (const e of chunk.native.events) {
          const data = isRecord(e.data.response)
            ? { ...e.data, response: relabelled(e.data.response, chunk.id, chunk.model) }
            : e.data;
          if (COMPLETE.has(e.event) && isRecord(data.response))
            options.onResponse?.(data.response as unknown as ResponseObject);
          drained = writer.event(e.event, data === e.data ? nativeEventText(e) : JSON.stringify(data)) ?? drained;
        }
        return drained;
      }
      encoder ??= new ResponsesStreamEncoder(context(chunk.id, chunk.model, chunk.provider));
      if (chunk.usage !== undefined) usage = chunk.usage;
      reasoning.add(chunk.choices[0]?.delta);
      return write(writer, encoder, reasoning.events(restoreEvents(encoder.chunk(chunk), toolNames, customCalls)));
    },
    streamError(writer, error: GatewayError, at: { call: AcceptedCall; model: string }) {
      failed = true;
      encoder ??= new ResponsesStreamEncoder(context(at.call.generationId, at.model, undefined));
      return write(writer, encoder, encoder.fail({ message: error.message, status: error.status }, usage));
    },
    endStream(writer) {
      if (!failed && !native && encoder !== null) {
        const final = usage ?? makeUsage(0, 0);
        const events = reasoning.events(
          restoreEvents(encoder.complete(final, usage?.cost ?? null), toolNames, customCalls),
        );
        const last = events.at(-1)?.response as ResponseObject | undefined;
        if (last !== undefined && last.status !== 'failed') options.onResponse?.(last);
        void write(writer, encoder, events);
      }
      writer.end('');
    },
  };
}
