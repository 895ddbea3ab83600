import type { BodyOf, CallKind, NativeUpstreamRequest } from '../../canonical/index.js';
import type { TextSegment } from '../../filters/index.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../../providers/index.js';
import type { PresetVersionRecord } from '../../domain/presets/index.js';
import type { KindTypes } from '../call.js';

export type { BodyOf };

/** The texts a body carries, in order, and how to write changed ones back. */
export interface BodyTexts<B> {
  segments: TextSegment[];
  /** A copy of the body with the texts at these indexes replaced; untouched parts are shared. */
  withTexts(changes: readonly { index: number; text: string }[]): B;
}

/**
 * Everything the gateway does differently per call kind. Adding a kind is a strategy here plus
 * its entry in `KindTypes` (src/gateway/call.ts) and in `STRATEGIES` (kinds/index.ts).
 */
export interface KindStrategy<K extends CallKind> {
  readonly kind: K;
  /**
   * Folds a preset version into a body that no longer names the preset: the preset fills what the
   * body leaves out, its system prompt comes first. Absent: the kind takes no preset.
   */
  readonly mergePreset?: (body: BodyOf<K>, version: PresetVersionRecord) => BodyOf<K>;
  /** Rules the body schema cannot say (a 400 naming the field). */
  check(body: BodyOf<K>): void;
  /** Every text the call sends: screened by content filters, counted for estimates. */
  texts(body: BodyOf<K>): BodyTexts<BodyOf<K>>;
  /**
   * The field whose input content filters cannot read (token ids), or null. A call with such input
   * is refused (400) when the key's guardrails have content filters: no surface is a side door.
   */
  unscreenable?(body: BodyOf<K>): string | null;
  /** The output-token cap the request sets, for the budget reservation. */
  maxOutputTokens(body: BodyOf<K>): number | null;
  /** The canonical request for one upstream model. */
  request(body: BodyOf<K>, upstreamModel: string): KindTypes[K]['request'];
  send(
    adapter: ProviderAdapter,
    endpoint: ProviderEndpointConfig,
    req: KindTypes[K]['request'],
    ctx: CallContext,
  ): Promise<KindTypes[K]['answer']>;
  sendStream(
    adapter: ProviderAdapter,
    endpoint: ProviderEndpointConfig,
    req: KindTypes[K]['request'],
    ctx: CallContext,
  ): Promise<AsyncIterable<KindTypes[K]['chunk']>>;
  /**
   * An attempt of a native pass-through (the client's body, for a candidate that speaks its
   * dialect): its answer and chunks are this kind's, carrying the upstream's own. Absent: the
   * kind has no native pass-through.
   */
  readonly sendNative?: (
    adapter: ProviderAdapter,
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ) => Promise<KindTypes[K]['answer']>;
  readonly streamNative?: (
    adapter: ProviderAdapter,
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ) => Promise<AsyncIterable<KindTypes[K]['chunk']>>;
  /** The finish reasons of an answer's first choice. */
  finish(answer: KindTypes[K]['answer']): { reason: string | null; native: string | null };
  /** The finish reason a chunk reports, if any. */
  chunkFinish(chunk: KindTypes[K]['chunk']): string | null;
  /**
   * Appends the text a chunk streamed to the client. It is tokenised once, at the end, and only
   * when the upstream never reported usage: the gateway is the one estimator of a stream's usage.
   */
  keepText(chunk: KindTypes[K]['chunk'], into: string[]): void;
  /** The prompt of a canonical request as an estimate counts it (the adapters count a JSON answer's alike). */
  promptText(req: KindTypes[K]['request']): string;
}
