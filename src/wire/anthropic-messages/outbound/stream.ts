import { deltaChunk, usageChunk, type CanonicalChunk, type CanonicalDelta } from '../../../canonical/index.js';
import {
  eventJson,
  fromHttpStatus,
  protocolError,
  SseItemStream,
  type SseEvent,
  type SseStreamReader,
  type UpstreamResponse,
} from '../../../upstream/index.js';
import type { ClosableIterator } from '../../primed-stream.js';
import { int, isRecord, nowSeconds, str, type JsonRecord } from '../../../canonical/json.js';
import {
  canonicalUsage,
  finishReason,
  readUsage,
  REASONING_FORMAT,
  ZERO_USAGE,
  type AnthropicUsageCounts,
} from './response.js';
import { anthropicErrorStatus } from './error-body.js';

interface StreamState {
  id: string;
  model: string;
  created: number;
  usage: AnthropicUsageCounts;
  toolIndexByBlock: Map<number, number>;
  stopped: boolean;
}

export interface AnthropicStreamOptions {
  providerId: string;
  apiKey: string | null;
  fallbackId: string;
  model: string;
}

/**
 * Anthropic SSE events (message_start, content_block_start/delta/stop, message_delta,
 * message_stop, ping, error) → canonical chunks, read as they arrive (SseItemStream); the last
 * chunk carries usage.
 */
export function anthropicChunks(res: UpstreamResponse, opts: AnthropicStreamOptions): ClosableIterator<CanonicalChunk> {
  return new SseItemStream(res, new AnthropicReader(opts));
}

class AnthropicReader implements SseStreamReader<CanonicalChunk> {
  private readonly st: StreamState;

  constructor(private readonly opts: AnthropicStreamOptions) {
    this.st = {
      id: opts.fallbackId,
      model: opts.model,
      created: nowSeconds(),
      usage: ZERO_USAGE,
      toolIndexByBlock: new Map(),
      stopped: false,
    };
  }

  read(event: SseEvent): CanonicalChunk | null {
    const { st, opts } = this;
    const data = eventJson(event, opts.providerId);
    if (data === null) return null;
    const type = str(data.type) ?? event.event;
    switch (type) {
      case 'message_start': {
        const message = isRecord(data.message) ? data.message : {};
        st.id = str(message.id) ?? st.id;
        st.model = str(message.model) ?? st.model;
        st.usage = readUsage(message.usage, st.usage);
        return this.chunk({ role: 'assistant', content: '' });
      }
      case 'content_block_start': {
        const out = blockStart(data, st);
        return out === null ? null : this.chunk(out);
      }
      case 'content_block_delta': {
        const out = blockDelta(data, st);
        return out === null ? null : this.chunk(out);
      }
      case 'message_delta': {
        const delta = isRecord(data.delta) ? data.delta : {};
        st.usage = readUsage(data.usage, st.usage);
        const native = str(delta.stop_reason);
        return native === undefined ? null : this.chunk({}, finishReason(native), native);
      }
      case 'message_stop':
        st.stopped = true;
        return null;
      case 'error': {
        const error = isRecord(data.error) ? data.error : {};
        const errType = str(error.type) ?? null;
        throw fromHttpStatus({
          kind: 'stream',
          providerId: opts.providerId,
          apiKey: opts.apiKey,
          upstreamStatus: anthropicErrorStatus(errType),
          upstreamMessage: str(error.message) ?? null,
          providerCode: errType,
        });
      }
      default:
        return null; // ping, content_block_stop, future event types
    }
  }

  complete(): boolean {
    return this.st.stopped;
  }

  last(): CanonicalChunk {
    const { st } = this;
    if (!st.stopped) throw protocolError(this.opts.providerId, 'Provider stream ended before message_stop');
    return usageChunk(st, canonicalUsage(st.usage));
  }

  private chunk(delta: CanonicalDelta, finish: string | null = null, native?: string): CanonicalChunk {
    return deltaChunk(this.st, delta, finish, native);
  }
}

function blockStart(data: JsonRecord, st: StreamState): CanonicalDelta | null {
  const index = int(data.index) ?? 0;
  const block = isRecord(data.content_block) ? data.content_block : {};
  if (block.type === 'tool_use') {
    const toolIndex = st.toolIndexByBlock.size;
    st.toolIndexByBlock.set(index, toolIndex);
    return {
      tool_calls: [
        {
          index: toolIndex,
          id: str(block.id) ?? `toolu_${toolIndex}`,
          type: 'function',
          function: { name: str(block.name) ?? '', arguments: '' },
        },
      ],
    };
  }
  if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') return { content: block.text };
  if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
    return { reasoning_details: [{ type: 'reasoning.encrypted', data: block.data, format: REASONING_FORMAT, index }] };
  }
  return null;
}

function blockDelta(data: JsonRecord, st: StreamState): CanonicalDelta | null {
  const index = int(data.index) ?? 0;
  const delta = isRecord(data.delta) ? data.delta : {};
  switch (delta.type) {
    case 'text_delta':
      return typeof delta.text === 'string' ? { content: delta.text } : null;
    case 'input_json_delta': {
      const toolIndex = st.toolIndexByBlock.get(index);
      if (toolIndex === undefined || typeof delta.partial_json !== 'string') return null;
      return { tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] };
    }
    case 'thinking_delta':
      return typeof delta.thinking === 'string'
        ? {
            reasoning: delta.thinking,
            reasoning_details: [{ type: 'reasoning.text', text: delta.thinking, format: REASONING_FORMAT, index }],
          }
        : null;
    case 'signature_delta':
      return typeof delta.signature === 'string'
        ? {
            reasoning_details: [
              { type: 'reasoning.text', signature: delta.signature, format: REASONING_FORMAT, index },
            ],
          }
        : null;
    default:
      return null;
  }
}
