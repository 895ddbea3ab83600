import {
  deltaChunk,
  makeUsage,
  usageChunk,
  type CanonicalChunk,
  type CanonicalDelta,
  type CanonicalUsage,
  type ChunkLabel,
} from '../../canonical/index.js';
import { isRecord, nowSeconds, str, type JsonRecord } from '../../canonical/json.js';
import {
  eventJson,
  fromHttpStatus,
  protocolError,
  SseItemStream,
  type SseEvent,
  type SseStreamReader,
  type UpstreamResponse,
} from '../../upstream/index.js';
import { googleErrorStatus } from './error-body.js';
import { finishReason, firstCandidate, geminiUsage, promptBlock, readParts } from './parts.js';

export interface GeminiStreamOptions {
  providerId: string;
  apiKey: string | null;
  fallbackId: string;
  model: string;
}

/**
 * `streamGenerateContent?alt=sse` → canonical chunks. Each event is a whole
 * `GenerateContentResponse` holding the next parts; a function call arrives whole, so it is one
 * tool-call delta with its full arguments. The piece with `finishReason` ends the answer; the
 * last chunk carries the usage of the last `usageMetadata` seen. An `{error}` event is the
 * upstream failing mid-stream.
 */
export function geminiChunks(res: UpstreamResponse, opts: GeminiStreamOptions): SseItemStream<CanonicalChunk> {
  return new SseItemStream(res, new GeminiReader(opts));
}

/** One Gemini stream's reading (SseItemStream drives it): an event's chunks, the first returned, the rest queued. */
class GeminiReader implements SseStreamReader<CanonicalChunk> {
  /** What every chunk repeats: the id the first event names, the latest model version, the start. */
  private readonly at: ChunkLabel;
  private usage: CanonicalUsage | null = null;
  private calls = 0;
  private started = false;
  private finished = false;
  /** The chunks an event gave after the one `read` returned, handed out by `more`. */
  private readonly queued: CanonicalChunk[] = [];

  constructor(private readonly opts: GeminiStreamOptions) {
    this.at = { id: opts.fallbackId, created: nowSeconds(), model: opts.model };
  }

  read(event: SseEvent): CanonicalChunk | null {
    const data = eventJson(event, this.opts.providerId);
    if (data === null) return null;
    if (isRecord(data.error)) throw streamFailure(data.error, this.opts);
    const { at } = this;
    at.id = this.started ? at.id : (str(data.responseId) ?? at.id);
    at.model = str(data.modelVersion) ?? at.model;
    this.usage = geminiUsage(data.usageMetadata) ?? this.usage;
    if (!this.started) {
      this.started = true;
      this.queued.push(deltaChunk(at, { role: 'assistant', content: '' }));
    }
    const candidate = firstCandidate(data);
    if (candidate === null) {
      const blocked = promptBlock(data);
      if (blocked !== null) {
        this.finished = true;
        this.queued.push(deltaChunk(at, {}, 'content_filter', blocked));
      }
      return this.more();
    }
    const read = readParts(candidate, this.calls);
    const delta: CanonicalDelta = {};
    if (read.text !== '') delta.content = read.text;
    if (read.reasoning !== '') delta.reasoning = read.reasoning;
    if (read.details.length > 0) delta.reasoning_details = read.details;
    if (read.calls.length > 0) {
      delta.tool_calls = read.calls.map((call, i) => ({ index: this.calls + i, ...call }));
      this.calls += read.calls.length;
    }
    if (Object.keys(delta).length > 0) this.queued.push(deltaChunk(at, delta));
    const native = str(candidate.finishReason);
    if (native !== undefined) {
      this.finished = true;
      this.queued.push(deltaChunk(at, {}, finishReason(native, this.calls > 0), native));
    }
    return this.more();
  }

  more(): CanonicalChunk | null {
    return this.queued.shift() ?? null;
  }

  complete(): boolean {
    return this.finished;
  }

  last(): CanonicalChunk {
    if (!this.finished) throw protocolError(this.opts.providerId, 'Provider stream ended before a finish reason');
    return usageChunk(this.at, this.usage ?? makeUsage(0, 0));
  }
}

function streamFailure(error: JsonRecord, opts: GeminiStreamOptions): Error {
  return fromHttpStatus({
    kind: 'stream',
    providerId: opts.providerId,
    apiKey: opts.apiKey,
    upstreamStatus: googleErrorStatus(error),
    upstreamMessage: str(error.message) ?? null,
    providerCode: str(error.status) ?? null,
  });
}
