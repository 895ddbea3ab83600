import { outputTextPart, reasoningTextPart } from './response.js';
import type { ItemStatus, OutputMessageItem, OutputText, ReasoningItem, ReasoningText } from './wire.js';

/**
 * The JSON text of the Responses stream encoder's events, put together from parts escaped once
 * per call: a stream repeats the answer's text in four events (its done event, the content part's,
 * the item's and the response's output), the request's echo in three and each item in two. Each
 * function returns what `JSON.stringify` gives for the event the encoder builds beside it, in its
 * keys' order (stream.test.ts compares every event of every kind).
 */

/** One typed Responses stream event (`type` plus its fields; `sequence_number` counts from 0). */
export interface ResponsesStreamEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

/** What the two text items (a message's output text, a reasoning item's text) write differently. */
export interface TextKind {
  /** The prefix of the item's delta and done events. */
  events: string;
  /** The type of its content part. */
  part: 'output_text' | 'reasoning_text';
  /** The members a content part has after its text. */
  partTail: string;
  /** The members a delta or done event has after its text. */
  eventTail: string;
}

export const MESSAGE: TextKind = {
  events: 'response.output_text',
  part: 'output_text',
  partTail: ',"annotations":[],"logprobs":[]',
  eventTail: ',"logprobs":[]',
};
export const REASONING: TextKind = {
  events: 'response.reasoning_text',
  part: 'reasoning_text',
  partTail: '',
  eventTail: '',
};

/**
 * The JSON text of one batch of events, for the events it was kept for; any other event (one
 * replaced after the batch was returned is a new object) is serialised as it is.
 */
export class RenderedEvents {
  private readonly texts = new Map<ResponsesStreamEvent, string>();

  clear(): void {
    this.texts.clear();
  }

  keep(event: ResponsesStreamEvent, json: string): ResponsesStreamEvent {
    this.texts.set(event, json);
    return event;
  }

  json(event: ResponsesStreamEvent): string {
    return this.texts.get(event) ?? JSON.stringify(event);
  }
}

/** An event's text up to its sequence number (the two members every event starts with). */
function head(event: ResponsesStreamEvent): string {
  return `{"type":${JSON.stringify(event.type)},"sequence_number":${event.sequence_number}`;
}

/** The members that name an item in its events: its id, its output index and, for a text item, the content index. */
export function itemAt(id: string, index: number, content: boolean): string {
  return `,"item_id":${JSON.stringify(id)},"output_index":${index}${content ? ',"content_index":0' : ''}`;
}

/**
 * A text item's delta event. A literal per kind (the keys in the order the encoder's other events
 * have: type, sequence number, then the fields): no fields object to spread per chunk.
 */
export function textDelta(
  kind: TextKind,
  sequence: number,
  id: string,
  index: number,
  delta: string,
): ResponsesStreamEvent {
  return kind === MESSAGE
    ? {
        type: 'response.output_text.delta',
        sequence_number: sequence,
        item_id: id,
        output_index: index,
        content_index: 0,
        delta,
        logprobs: [],
      }
    : {
        type: 'response.reasoning_text.delta',
        sequence_number: sequence,
        item_id: id,
        output_index: index,
        content_index: 0,
        delta,
      };
}

/** A delta event; `tail` is the members it has after the delta (a text kind's `eventTail`; none for a call). */
export function deltaJson(event: ResponsesStreamEvent, at: string, delta: string, tail: string): string {
  return `${head(event)}${at},"delta":${JSON.stringify(delta)}${tail}}`;
}

/** A text item's `…text.done`, its text already JSON. */
export function textDoneJson(event: ResponsesStreamEvent, at: string, text: string, kind: TextKind): string {
  return `${head(event)}${at},"text":${text}${kind.eventTail}}`;
}

/** A text item's content part. */
export function textPart(kind: TextKind, text: string): OutputText | ReasoningText {
  return kind === MESSAGE ? outputTextPart(text) : reasoningTextPart(text);
}

/** `textPart`'s JSON, its text already JSON. */
export function partJson(kind: TextKind, text: string): string {
  return `{"type":"${kind.part}","text":${text}${kind.partTail}}`;
}

export function partDoneJson(event: ResponsesStreamEvent, at: string, part: string): string {
  return `${head(event)}${at},"part":${part}}`;
}

/** A closed text item with its one content part (already JSON). */
export function textItemJson(item: ReasoningItem | OutputMessageItem, status: ItemStatus, part: string): string {
  const id = JSON.stringify(item.id);
  return item.type === 'message'
    ? `{"type":"message","id":${id},"role":"assistant","status":"${status}","content":[${part}]}`
    : `{"type":"reasoning","id":${id},"summary":[],"content":[${part}],"status":"${status}"}`;
}

export function callDoneJson(event: ResponsesStreamEvent, at: string, name: string, args: string): string {
  return `${head(event)}${at},"name":${JSON.stringify(name)},"arguments":${JSON.stringify(args)}}`;
}

export function itemDoneJson(event: ResponsesStreamEvent, index: number, item: string): string {
  return `${head(event)},"output_index":${index},"item":${item}}`;
}

/** An event whose one member after the head is `response` (already JSON). */
export function responseEventJson(event: ResponsesStreamEvent, response: string): string {
  return `${head(event)},"response":${response}}`;
}
