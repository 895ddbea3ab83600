import type { CanonicalChunk, CanonicalDelta, CanonicalUsage, NativeEvent } from '../../../canonical/index.js';
import type { JsonRecord } from '../../../canonical/json.js';
import { messagesUsage, stopReason } from './encode.js';

/** One Messages stream event. */
export type MessagesEvent = NativeEvent;

/** For a delta without details or tool calls: no array per chunk. */
const NONE: readonly never[] = [];

type OpenBlock = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; toolIndex: number };

/**
 * Canonical stream chunks → the Messages event sequence: `message_start`, then per content block
 * `content_block_start`, its deltas (`text_delta`, `thinking_delta`, `signature_delta`,
 * `input_json_delta`) and `content_block_stop`, one `ping` after the first block opens, then
 * `message_delta` with the stop reason and the whole usage, and `message_stop`. One block is
 * open at a time: a delta of another kind closes it and opens the next.
 */
export class MessagesStreamEncoder {
  private block: OpenBlock | null = null;
  private index = -1;
  private pinged = false;
  private finish: string | null = null;
  private native: string | null = null;
  private usage: CanonicalUsage | null = null;
  private readonly closedTools = new Set<number>();

  constructor(private readonly meta: { id: string; model: string; inputTokens?: number }) {}

  start(): MessagesEvent[] {
    return [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: this.meta.id,
            type: 'message',
            role: 'assistant',
            model: this.meta.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: this.meta.inputTokens ?? 0, output_tokens: 0 },
          },
        },
      },
    ];
  }

  chunk(chunk: CanonicalChunk): MessagesEvent[] {
    const out: MessagesEvent[] = [];
    if (chunk.usage !== undefined) this.usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      this.delta(choice.delta, out);
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.finish = choice.finish_reason;
      if (typeof choice.native_finish_reason === 'string') this.native = choice.native_finish_reason;
    }
    return out;
  }

  /** Closes the open block and ends the message; `usage` when the upstream never reported it. */
  end(fallbackUsage?: CanonicalUsage): MessagesEvent[] {
    const out: MessagesEvent[] = [];
    this.close(out);
    if (!this.pinged) out.push(ping());
    this.pinged = true;
    out.push({
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: stopReason(this.finish ?? 'stop', this.native), stop_sequence: null },
        usage: messagesUsage(this.usage ?? fallbackUsage),
      },
    });
    out.push({ event: 'message_stop', data: { type: 'message_stop' } });
    return out;
  }

  private delta(delta: CanonicalDelta, out: MessagesEvent[]): void {
    for (const detail of delta.reasoning_details ?? NONE) {
      if (detail.type === 'reasoning.encrypted' && typeof detail.data === 'string') {
        this.open({ kind: 'thinking' }, { type: 'redacted_thinking', data: detail.data }, out);
        this.close(out);
      } else if (typeof detail.signature === 'string' && detail.signature !== '') {
        if (this.block?.kind !== 'thinking') this.open({ kind: 'thinking' }, thinkingStart(), out);
        out.push(blockDelta(this.index, { type: 'signature_delta', signature: detail.signature }, 'signature'));
      }
    }
    if (typeof delta.reasoning === 'string' && delta.reasoning !== '') {
      if (this.block?.kind !== 'thinking') this.open({ kind: 'thinking' }, thinkingStart(), out);
      out.push(blockDelta(this.index, { type: 'thinking_delta', thinking: delta.reasoning }, 'thinking'));
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      if (this.block?.kind !== 'text') this.open({ kind: 'text' }, { type: 'text', text: '' }, out);
      out.push(blockDelta(this.index, { type: 'text_delta', text: delta.content }, 'text'));
    }
    for (const call of delta.tool_calls ?? NONE) {
      const current = this.block?.kind === 'tool' ? this.block.toolIndex : null;
      if (current !== call.index) {
        // Arguments of a tool call whose block already closed cannot be sent any more.
        if (this.closedTools.has(call.index)) continue;
        const start = {
          type: 'tool_use',
          id: call.id ?? `toolu_${call.index}`,
          name: call.function?.name ?? '',
          input: {},
        };
        this.open({ kind: 'tool', toolIndex: call.index }, start, out);
      }
      const args = call.function?.arguments;
      if (typeof args === 'string' && args !== '')
        out.push(blockDelta(this.index, { type: 'input_json_delta', partial_json: args }, 'partial_json'));
    }
  }

  private open(block: OpenBlock, contentBlock: JsonRecord, out: MessagesEvent[]): void {
    this.close(out);
    this.index += 1;
    this.block = block;
    out.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index: this.index, content_block: contentBlock },
    });
    if (!this.pinged) {
      out.push(ping());
      this.pinged = true;
    }
  }

  private close(out: MessagesEvent[]): void {
    if (this.block === null) return;
    if (this.block.kind === 'tool') this.closedTools.add(this.block.toolIndex);
    out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index: this.index } });
    this.block = null;
  }
}

function ping(): MessagesEvent {
  return { event: 'ping', data: { type: 'ping' } };
}

function thinkingStart(): JsonRecord {
  return { type: 'thinking', thinking: '', signature: '' };
}

/** A content block's delta: its type and the one string it carries. */
type BlockDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string };

/** The field of a delta that holds its string. */
type DeltaField<D extends BlockDelta> = Exclude<keyof D, 'type'> & string;

/**
 * One `content_block_delta` event. It is most of a stream's events, so its JSON text is written
 * here from the one string it carries (the writer sends `text`; `data` is the same event as
 * objects) instead of serialising three objects for every delta.
 */
function blockDelta<D extends BlockDelta>(index: number, delta: D, field: DeltaField<D>): MessagesEvent {
  const value = delta[field] as string;
  return {
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index, delta },
    text: `{"type":"content_block_delta","index":${index},"delta":{"type":"${delta.type}","${field}":${JSON.stringify(value)}}}`,
  };
}
