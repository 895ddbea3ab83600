import type { CanonicalChunk, CanonicalUsage, ToolCallDelta } from '../../canonical/index.js';
import {
  itemId,
  outputTextPart,
  reasoningTextPart,
  responseJson,
  responseObject,
  responsesUsage,
  statusFor,
  type ResponseContext,
} from './response.js';
import {
  callDoneJson,
  deltaJson,
  itemAt,
  itemDoneJson,
  MESSAGE,
  partDoneJson,
  partJson,
  REASONING,
  RenderedEvents,
  responseEventJson,
  textDelta,
  textDoneJson,
  textItemJson,
  textPart,
  type ResponsesStreamEvent,
  type TextKind,
} from './stream-json.js';
import type {
  FunctionCallItem,
  OutputItem,
  OutputMessageItem,
  OutputText,
  ReasoningItem,
  ReasoningText,
  ResponseErrorCode,
} from './wire.js';

export type { ResponsesStreamEvent } from './stream-json.js';

const NO_CALLS: readonly ToolCallDelta[] = [];

interface Open<T extends OutputItem> {
  item: T;
  index: number;
  text: string;
  /** The members of its events that name the item (`itemAt`). */
  at: string;
}

/**
 * Turns canonical chat chunks into the Responses stream: `response.created` and
 * `response.in_progress` first; per output item `output_item.added`, its content part, the
 * deltas, and the `…done` events when the next item starts or the answer ends; then
 * `response.completed` (or `response.incomplete`) with usage. A failure after the start is
 * `response.failed`; one before it is an `error` event. Output indices follow the order items are
 * added, as the SDK's stream accumulator requires. Events share live item objects: serialise
 * each batch before the next call.
 */
export class ResponsesStreamEncoder {
  /**
   * The JSON text of the batch last returned (stream-json.ts): what a stream repeats is escaped
   * once. An event replaced after the batch (tool-call restoring, encrypted reasoning) is a new
   * object and is serialised as it is.
   */
  private readonly rendered = new RenderedEvents();
  /** Each closed item's JSON text, for `response.completed`'s output. */
  private readonly itemJson = new Map<OutputItem, string>();
  /** The members of the request's echo, as JSON text (the same in every response object). */
  private echoJson: string | null = null;
  private seq = 0;
  private started = false;
  private readonly output: OutputItem[] = [];
  private reasoning: Open<ReasoningItem> | null = null;
  private message: Open<OutputMessageItem> | null = null;
  private readonly calls = new Map<number, Open<FunctionCallItem>>();
  private finish: string | null = null;

  constructor(private readonly ctx: ResponseContext) {}

  /** An event of the batch last returned as JSON text: `JSON.stringify(event)`. */
  json(event: ResponsesStreamEvent): string {
    return this.rendered.json(event);
  }

  /** `response.created` and `response.in_progress`, once. */
  private start(): ResponsesStreamEvent[] {
    if (this.started) return [];
    this.started = true;
    const response = responseObject(this.ctx, { status: 'in_progress', output: [] });
    const json = responseJson(response, this.echoMembers(), '[]');
    const created = this.event('response.created', { response });
    const inProgress = this.event('response.in_progress', { response });
    return [
      this.rendered.keep(created, responseEventJson(created, json)),
      this.rendered.keep(inProgress, responseEventJson(inProgress, json)),
    ];
  }

  chunk(chunk: CanonicalChunk): ResponsesStreamEvent[] {
    this.rendered.clear();
    const out = this.start();
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      const d = choice.delta;
      if (typeof d.reasoning === 'string' && d.reasoning !== '') this.reasoningDelta(d.reasoning, out);
      if (typeof d.content === 'string' && d.content !== '') this.messageDelta(d.content, out);
      if (typeof d.refusal === 'string' && d.refusal !== '') this.messageDelta(d.refusal, out);
      for (const call of d.tool_calls ?? NO_CALLS) {
        let open = this.calls.get(call.index);
        if (open === undefined) {
          this.closeText(out);
          const item: FunctionCallItem = {
            type: 'function_call',
            id: itemId('fc', this.ctx, this.calls.size),
            call_id: call.id ?? `call_${this.calls.size}`,
            name: call.function?.name ?? '',
            arguments: '',
            status: 'in_progress',
          };
          const index = this.add(item, out);
          open = { item, index, text: '', at: itemAt(item.id, index, false) };
          this.calls.set(call.index, open);
        } else if (call.function?.name !== undefined && open.item.name === '') open.item.name = call.function.name;
        const args = call.function?.arguments ?? '';
        if (args !== '') {
          open.text += args;
          const event = this.event('response.function_call_arguments.delta', {
            item_id: open.item.id,
            output_index: open.index,
            delta: args,
          });
          out.push(this.rendered.keep(event, deltaJson(event, open.at, args, '')));
        }
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.finish = choice.finish_reason;
    }
    return out;
  }

  /** Closes every open item and ends with `response.completed` (or `.incomplete`) carrying usage. */
  complete(usage: CanonicalUsage, cost?: number | null): ResponsesStreamEvent[] {
    this.rendered.clear();
    const out = this.start();
    const { status, incomplete_details } = statusFor(this.finish === 'error' ? 'stop' : this.finish);
    const itemStatus = status === 'completed' ? 'completed' : 'incomplete';
    this.closeText(out, itemStatus);
    for (const open of this.calls.values()) this.closeCall(open, out);
    this.calls.clear();
    const response = responseObject(this.ctx, {
      status,
      incomplete_details,
      output: this.output,
      usage: responsesUsage(usage, cost),
      ...(status === 'completed' ? { completedAt: Math.floor(Date.now() / 1000) } : {}),
    });
    const output = this.output.map((item) => this.itemJson.get(item) ?? JSON.stringify(item)).join(',');
    const done = this.event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
    out.push(
      this.rendered.keep(done, responseEventJson(done, responseJson(response, this.echoMembers(), `[${output}]`))),
    );
    return out;
  }

  /** A failure: `response.failed` (open items marked incomplete) once started, else an `error` event. */
  fail(error: { message: string; status: number }, usage?: CanonicalUsage | null): ResponsesStreamEvent[] {
    this.rendered.clear();
    const code: ResponseErrorCode =
      error.status === 429 ? 'rate_limit_exceeded' : error.status < 500 ? 'invalid_prompt' : 'server_error';
    if (!this.started)
      return [this.event('error', { code: String(error.status), message: error.message, param: null })];
    for (const open of [this.reasoning, this.message]) {
      if (open === null) continue;
      open.item.status = 'incomplete';
      this.fillText(open);
    }
    for (const open of this.calls.values()) {
      open.item.status = 'incomplete';
      open.item.arguments = open.text;
    }
    const response = responseObject(this.ctx, {
      status: 'failed',
      output: this.output,
      error: { code, message: error.message },
      ...(usage !== undefined && usage !== null ? { usage: responsesUsage(usage) } : {}),
    });
    return [this.event('response.failed', { response })];
  }

  private event(type: string, fields: Record<string, unknown>): ResponsesStreamEvent {
    return { type, sequence_number: this.seq++, ...fields };
  }

  private echoMembers(): string {
    this.echoJson ??= JSON.stringify(this.ctx.echo).slice(1, -1);
    return this.echoJson;
  }

  private add(item: OutputItem, out: ResponsesStreamEvent[]): number {
    const index = this.output.length;
    this.output.push(item);
    const added =
      item.type === 'message'
        ? { ...item, content: [] }
        : item.type === 'reasoning'
          ? { ...item, content: [] }
          : { ...item };
    out.push(this.event('response.output_item.added', { output_index: index, item: added }));
    return index;
  }

  private reasoningDelta(text: string, out: ResponsesStreamEvent[]): void {
    if (this.reasoning === null) {
      this.closeText(out);
      const item: ReasoningItem = {
        type: 'reasoning',
        id: itemId('rs', this.ctx, this.output.length),
        summary: [],
        content: [],
        status: 'in_progress',
      };
      this.reasoning = this.openText(item, REASONING, out);
    }
    this.appendText(this.reasoning, REASONING, text, out);
  }

  private messageDelta(text: string, out: ResponsesStreamEvent[]): void {
    if (this.message === null) {
      this.closeReasoning(out);
      const item: OutputMessageItem = {
        type: 'message',
        id: itemId('msg', this.ctx, this.output.length),
        role: 'assistant',
        status: 'in_progress',
        content: [],
      };
      this.message = this.openText(item, MESSAGE, out);
    }
    this.appendText(this.message, MESSAGE, text, out);
  }

  /** Adds a text item and its empty content part. */
  private openText<T extends ReasoningItem | OutputMessageItem>(
    item: T,
    kind: TextKind,
    out: ResponsesStreamEvent[],
  ): Open<T> {
    const index = this.add(item, out);
    const open = { item, index, text: '', at: itemAt(item.id, index, true) };
    out.push(this.partEvent('added', open, textPart(kind, '')));
    return open;
  }

  /** One delta of a text item: its text so far grows, and the delta event is written. */
  private appendText(open: Open<OutputItem>, kind: TextKind, text: string, out: ResponsesStreamEvent[]): void {
    open.text += text;
    const event = textDelta(kind, this.seq++, open.item.id, open.index, text);
    out.push(this.rendered.keep(event, deltaJson(event, open.at, text, kind.eventTail)));
  }

  private partEvent(
    phase: 'added' | 'done',
    open: Open<OutputItem>,
    part: OutputText | ReasoningText,
  ): ResponsesStreamEvent {
    return this.event(`response.content_part.${phase}`, {
      item_id: open.item.id,
      output_index: open.index,
      content_index: 0,
      part,
    });
  }

  /** Sets a text item's one content part to its text so far, and returns that part. */
  private fillText(open: Open<ReasoningItem> | Open<OutputMessageItem>): OutputText | ReasoningText {
    if (open.item.type === 'reasoning') {
      const part = reasoningTextPart(open.text);
      open.item.content = [part];
      return part;
    }
    const part = outputTextPart(open.text);
    open.item.content = [part];
    return part;
  }

  private closeReasoning(out: ResponsesStreamEvent[], status: 'completed' | 'incomplete' = 'completed'): void {
    const open = this.reasoning;
    if (open === null) return;
    this.reasoning = null;
    this.closeTextItem(open, REASONING, status, out);
  }

  /** Closes the open reasoning and message items (a new item is about to start, or the end). */
  private closeText(out: ResponsesStreamEvent[], status: 'completed' | 'incomplete' = 'completed'): void {
    this.closeReasoning(out, status);
    const open = this.message;
    if (open === null) return;
    this.message = null;
    this.closeTextItem(open, MESSAGE, status, out);
  }

  /** A text item's done events: its text's, its content part's and its own, the text escaped once for all. */
  private closeTextItem(
    open: Open<ReasoningItem> | Open<OutputMessageItem>,
    kind: TextKind,
    status: 'completed' | 'incomplete',
    out: ResponsesStreamEvent[],
  ): void {
    const text = JSON.stringify(open.text);
    const fields: Record<string, unknown> = {
      item_id: open.item.id,
      output_index: open.index,
      content_index: 0,
      text: open.text,
    };
    if (kind === MESSAGE) fields.logprobs = [];
    const done = this.event(`${kind.events}.done`, fields);
    out.push(this.rendered.keep(done, textDoneJson(done, open.at, text, kind)));
    const part = partJson(kind, text);
    const partDone = this.partEvent('done', open, this.fillText(open));
    out.push(this.rendered.keep(partDone, partDoneJson(partDone, open.at, part)));
    open.item.status = status;
    this.closeItem(open, textItemJson(open.item, status, part), out);
  }

  private closeCall(open: Open<FunctionCallItem>, out: ResponsesStreamEvent[]): void {
    open.item.arguments = open.text;
    open.item.status = 'completed';
    const done = this.event('response.function_call_arguments.done', {
      item_id: open.item.id,
      output_index: open.index,
      name: open.item.name,
      arguments: open.text,
    });
    out.push(this.rendered.keep(done, callDoneJson(done, open.at, open.item.name, open.text)));
    this.closeItem(open, JSON.stringify(open.item), out);
  }

  /** `output_item.done` for a closed item, whose JSON text is kept for the response's output. */
  private closeItem(open: Open<OutputItem>, itemJson: string, out: ResponsesStreamEvent[]): void {
    this.itemJson.set(open.item, itemJson);
    const done = this.event('response.output_item.done', { output_index: open.index, item: open.item });
    out.push(this.rendered.keep(done, itemDoneJson(done, open.index, itemJson)));
  }
}

/** One event as SSE text: `event: <type>` and its JSON, as OpenAI writes them. */
export function sseEvent(event: ResponsesStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
