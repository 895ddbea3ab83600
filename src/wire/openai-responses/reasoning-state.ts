import type { ChatMessage, ReasoningDetail } from '../../canonical/index.js';
import type { ResponsesStreamEvent } from './stream.js';
import type { OutputItem } from './wire.js';

/**
 * Reasoning items round-tripped through `encrypted_content`: an upstream's signed reasoning (an
 * Anthropic thinking block's text and signature, a redacted block's data) is carried to the client
 * inside the reasoning item's `encrypted_content` (`sy1.` + base64url of the details) and, when
 * the client sends the item back, restored onto the next assistant turn, so the upstream receives
 * its own thinking blocks again. Another server's `encrypted_content` is opaque to Switchyard and
 * dropped, as a chat upstream cannot take it back.
 */
const PREFIX = 'sy1.';

export function encodeReasoning(details: readonly ReasoningDetail[]): string | null {
  if (details.length === 0) return null; // the usual stream chunk: no array to filter
  const kept = details.filter((d) => typeof d.signature === 'string' || typeof d.data === 'string');
  if (kept.length === 0) return null;
  return PREFIX + Buffer.from(JSON.stringify(kept)).toString('base64url');
}

export function decodeReasoning(value: unknown): ReasoningDetail[] | null {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value.slice(PREFIX.length), 'base64url').toString('utf8'));
    if (!Array.isArray(parsed)) return null;
    return parsed.filter(
      (d): d is ReasoningDetail =>
        typeof d === 'object' && d !== null && typeof (d as { type?: unknown }).type === 'string',
    );
  } catch {
    return null;
  }
}

/** An input reasoning item as the start of an assistant turn (null: nothing a chat can take back). */
export function reasoningTurn(encrypted: unknown): ChatMessage | null {
  const details = decodeReasoning(encrypted);
  if (details === null || details.length === 0) return null;
  const text = details.map((d) => (typeof d.text === 'string' ? d.text : '')).join('');
  const message: ChatMessage = { role: 'assistant', content: null, reasoning_details: details };
  if (text !== '') message.reasoning = text;
  return message;
}

/** An assistant turn that only holds reasoning (no text, no calls yet): the next item completes it. */
export function isReasoningOnly(message: ChatMessage | undefined): boolean {
  return (
    message?.role === 'assistant' &&
    message.reasoning_details !== undefined &&
    (message.content === null || message.content === undefined || message.content === '') &&
    message.tool_calls === undefined
  );
}

/** Sets `encrypted_content` on the reasoning items of an output (or adds one when only details came). */
export function withEncryptedReasoning(items: OutputItem[], encrypted: string | null): OutputItem[] {
  if (encrypted === null) return items;
  return items.map((item) => (item.type === 'reasoning' ? { ...item, encrypted_content: encrypted } : item));
}

/**
 * The reasoning details a stream carried (text pieces and the signature arrive apart), and the
 * events with `encrypted_content` set on reasoning items once the details are known.
 */
export class StreamedReasoning {
  private text = '';
  private readonly details: ReasoningDetail[] = [];

  add(delta: { reasoning?: string | null; reasoning_details?: ReasoningDetail[] } | undefined): void {
    if (delta === undefined) return;
    if (typeof delta.reasoning === 'string') this.text += delta.reasoning;
    if (delta.reasoning_details === undefined) return;
    for (const d of delta.reasoning_details) {
      if (d.type === 'reasoning.text' && typeof d.signature === 'string') {
        const detail: ReasoningDetail = { type: 'reasoning.text', text: this.text, signature: d.signature };
        if (typeof d.format === 'string') detail.format = d.format;
        this.details.push(detail);
        this.text = ''; // the next thinking block's text starts here
      } else if (typeof d.data === 'string') this.details.push(d);
    }
  }

  encrypted(): string | null {
    return encodeReasoning(this.details);
  }

  events(events: readonly ResponsesStreamEvent[]): readonly ResponsesStreamEvent[] {
    const encrypted = this.encrypted();
    if (encrypted === null) return events;
    return events.map((event) => {
      const item = event.item as OutputItem | undefined;
      if (item?.type === 'reasoning') return { ...event, item: { ...item, encrypted_content: encrypted } };
      const response = event.response as { output?: OutputItem[] } | undefined;
      if (response?.output !== undefined)
        return { ...event, response: { ...response, output: withEncryptedReasoning(response.output, encrypted) } };
      return event;
    });
  }
}
