import {
  deltaChunk,
  makeUsage,
  usageChunk,
  type CanonicalChunk,
  type CanonicalDelta,
  type CanonicalUsage,
  type ChunkLabel,
} from '../../canonical/index.js';
import { int, isRecord, nowSeconds, str, type JsonRecord } from '../../canonical/json.js';
import { AwsItemStream, protocolError, type AwsEventSource, type AwsStreamReader } from '../../upstream/index.js';
import { utf8Text, type AwsEventMessage } from '../../upstream/framing/aws-eventstream.js';
import type { ClosableIterator } from '../primed-stream.js';
import { bedrockStreamError } from './error-body.js';
import { converseFinish, converseUsage, reasoningDetail, REASONING_FORMAT } from './response.js';

/**
 * ConverseStream events (messageStart, contentBlockStart/Delta/Stop, messageStop, metadata; or an
 * exception) → canonical chunks. The stop reason comes in `messageStop`, the usage after it in
 * `metadata`: the finish chunk is held back until the usage is known, and the last chunk carries it.
 */

export interface ConverseStreamOptions {
  providerId: string;
  apiKey: string | null;
  id: string;
  model: string;
}

/** The ConverseStream of one upstream answer, read message by message (no generator per event). */
export function converseChunks(res: AwsEventSource, opts: ConverseStreamOptions): ClosableIterator<CanonicalChunk> {
  return new AwsItemStream(res, new ConverseReader(opts));
}

/**
 * One ConverseStream's messages → canonical chunks: an exception message throws UpstreamError;
 * the stream is complete once `messageStop` and `metadata` were both read.
 */
class ConverseReader implements AwsStreamReader<CanonicalChunk> {
  private readonly label: ChunkLabel;
  /** A tool call's index in the chunks, by the content block that carries it. */
  private readonly toolIndexByBlock = new Map<number, number>();
  private stop: string | null = null;
  private usage: CanonicalUsage | null = null;
  /** The usage chunk, queued behind the finish chunk that `last` returns. */
  private queued: CanonicalChunk | null = null;

  constructor(private readonly opts: ConverseStreamOptions) {
    this.label = { id: opts.id, created: nowSeconds(), model: opts.model };
  }

  read(message: AwsEventMessage): CanonicalChunk | null {
    const { providerId, apiKey } = this.opts;
    if (message.messageType !== 'event')
      throw bedrockStreamError({ type: message.type, body: message.body, providerId, apiKey });
    const data = parse(message.body, providerId);
    let delta: CanonicalDelta | null = null;
    switch (message.type) {
      case 'messageStart':
        delta = { role: 'assistant', content: '' };
        break;
      case 'contentBlockStart':
        delta = blockStart(data, this.toolIndexByBlock);
        break;
      case 'contentBlockDelta':
        delta = blockDelta(data, this.toolIndexByBlock);
        break;
      case 'messageStop':
        this.stop = str(data.stopReason) ?? 'end_turn';
        break;
      case 'metadata':
        this.usage = converseUsage(data.usage);
        break;
      default:
        break; // contentBlockStop and event types Bedrock may add
    }
    return delta === null ? null : deltaChunk(this.label, delta);
  }

  complete(): boolean {
    return this.stop !== null && this.usage !== null;
  }

  /** The finish chunk, then (through `more`) the usage chunk; a stream without `messageStop` is a protocol error. */
  last(): CanonicalChunk {
    if (this.stop === null) throw protocolError(this.opts.providerId, 'Provider stream ended before messageStop');
    this.queued = usageChunk(this.label, this.usage ?? makeUsage(0, 0));
    return deltaChunk(this.label, {}, converseFinish(this.stop), this.stop);
  }

  more(): CanonicalChunk | null {
    const next = this.queued;
    this.queued = null;
    return next;
  }
}

function parse(body: Uint8Array, providerId: string): JsonRecord {
  try {
    const value = JSON.parse(utf8Text(body)) as unknown;
    return isRecord(value) ? value : {};
  } catch (error) {
    throw protocolError(providerId, 'Provider sent an invalid stream event', error);
  }
}

function blockStart(data: JsonRecord, toolIndexByBlock: Map<number, number>): CanonicalDelta | null {
  const index = int(data.contentBlockIndex) ?? 0;
  const start = isRecord(data.start) ? data.start : {};
  if (!isRecord(start.toolUse)) return null;
  const toolIndex = toolIndexByBlock.size;
  toolIndexByBlock.set(index, toolIndex);
  return {
    tool_calls: [
      {
        index: toolIndex,
        id: str(start.toolUse.toolUseId) ?? `tooluse_${toolIndex}`,
        type: 'function',
        function: { name: str(start.toolUse.name) ?? '', arguments: '' },
      },
    ],
  };
}

function blockDelta(data: JsonRecord, toolIndexByBlock: Map<number, number>): CanonicalDelta | null {
  const index = int(data.contentBlockIndex) ?? 0;
  const delta = isRecord(data.delta) ? data.delta : {};
  if (typeof delta.text === 'string') return { content: delta.text };
  if (isRecord(delta.toolUse)) {
    const toolIndex = toolIndexByBlock.get(index);
    if (toolIndex === undefined || typeof delta.toolUse.input !== 'string') return null;
    return { tool_calls: [{ index: toolIndex, function: { arguments: delta.toolUse.input } }] };
  }
  if (isRecord(delta.reasoningContent)) {
    const r = delta.reasoningContent;
    if (typeof r.text === 'string') {
      const detail = reasoningDetail({ reasoningText: { text: r.text } }, index);
      return { reasoning: r.text, reasoning_details: detail === null ? [] : [detail] };
    }
    if (typeof r.signature === 'string') {
      return {
        reasoning_details: [{ type: 'reasoning.text', signature: r.signature, format: REASONING_FORMAT, index }],
      };
    }
    const redacted = reasoningDetail(r, index);
    if (redacted !== null) return { reasoning_details: [redacted] };
  }
  return null;
}
