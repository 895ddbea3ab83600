import type { CanonicalChunk, CanonicalUsage, ToolCallDelta } from '../../canonical/index.js';
import { itemId, responseObject, responsesUsage, statusFor, type ResponseContext } from './response.js';
import type { FunctionCallItem, OutputItem, OutputMessageItem, ReasoningItem, ResponseErrorCode } from './wire.js';

/** One typed Responses stream event (`type` plus its fields; `sequence_number` counts from 0). */
export interface ResponsesStreamEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

const NO_CALLS: readonly ToolCallDelta[] = [];

interface Open<T extends OutputItem> {
  item: T;
  index: number;
  text: string;
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
  private seq = 0;
  private started = false;
  private readonly output: OutputItem[] = [];
  private reasoning: Open<ReasoningItem> | null = null;
  private message: Open<OutputMessageItem> | null = null;
  private readonly calls = new Map<number, Open<FunctionCallItem>>();
  private finish: string | null = null;

  constructor(private readonly ctx: ResponseContext) {}

  get hasStarted(): boolean {
    return this.started;
  }

  start(): ResponsesStreamEvent[] {
    if (this.started) return [];
    this.started = true;
    const response = responseObject(this.ctx, { status: 'in_progress', output: [] });
    return [this.event('response.created', { response }), this.event('response.in_progress', { response })];
  }

  chunk(chunk: CanonicalChunk): ResponsesStreamEvent[] {
    const out = this.start();
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      const d = choice.delta;
      if (typeof d.reasoning === 'string' && d.reasoning !== '') this.reasoningDelta(d.reasoning, out);
      if (typeof d.content === 'string' && d.content !== '') this.textDelta(d.content, out);
      if (typeof d.refusal === 'string' && d.refusal !== '') this.textDelta(d.refusal, out);
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
          open = { item, index: this.add(item, out), text: '' };
          this.calls.set(call.index, open);
        } else if (call.function?.name !== undefined && open.item.name === '') open.item.name = call.function.name;
        const args = call.function?.arguments ?? '';
        if (args !== '') {
          open.text += args;
          out.push(
            this.event('response.function_call_arguments.delta', {
              item_id: open.item.id,
              output_index: open.index,
              delta: args,
            }),
          );
        }
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.finish = choice.finish_reason;
    }
    return out;
  }

  /** Closes every open item and ends with `response.completed` (or `.incomplete`) carrying usage. */
  complete(usage: CanonicalUsage, cost?: number | null): ResponsesStreamEvent[] {
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
    out.push(this.event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response }));
    return out;
  }

  /** A failure: `response.failed` (open items marked incomplete) once started, else an `error` event. */
  fail(error: { message: string; status: number }, usage?: CanonicalUsage | null): ResponsesStreamEvent[] {
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
      this.reasoning = { item, index: this.add(item, out), text: '' };
      out.push(this.partEvent('added', this.reasoning, { type: 'reasoning_text', text: '' }));
    }
    this.reasoning.text += text;
    const { item, index } = this.reasoning;
    // The per-chunk events are literals (the same keys in the same order as `event` gives):
    // no fields object to spread.
    out.push({
      type: 'response.reasoning_text.delta',
      sequence_number: this.seq++,
      item_id: item.id,
      output_index: index,
      content_index: 0,
      delta: text,
    });
  }

  private textDelta(text: string, out: ResponsesStreamEvent[]): void {
    if (this.message === null) {
      this.closeReasoning(out);
      const item: OutputMessageItem = {
        type: 'message',
        id: itemId('msg', this.ctx, this.output.length),
        role: 'assistant',
        status: 'in_progress',
        content: [],
      };
      this.message = { item, index: this.add(item, out), text: '' };
      out.push(this.partEvent('added', this.message, { type: 'output_text', text: '', annotations: [], logprobs: [] }));
    }
    this.message.text += text;
    const { item, index } = this.message;
    out.push({
      type: 'response.output_text.delta',
      sequence_number: this.seq++,
      item_id: item.id,
      output_index: index,
      content_index: 0,
      delta: text,
      logprobs: [],
    });
  }

  private partEvent(
    phase: 'added' | 'done',
    open: Open<OutputItem>,
    part: Record<string, unknown>,
  ): ResponsesStreamEvent {
    return this.event(`response.content_part.${phase}`, {
      item_id: open.item.id,
      output_index: open.index,
      content_index: 0,
      part,
    });
  }

  private fillText(open: Open<ReasoningItem> | Open<OutputMessageItem>): void {
    if (open.item.type === 'reasoning') open.item.content = [{ type: 'reasoning_text', text: open.text }];
    else open.item.content = [{ type: 'output_text', text: open.text, annotations: [], logprobs: [] }];
  }

  private closeReasoning(out: ResponsesStreamEvent[], status: 'completed' | 'incomplete' = 'completed'): void {
    const open = this.reasoning;
    if (open === null) return;
    this.reasoning = null;
    const base = { item_id: open.item.id, output_index: open.index, content_index: 0 };
    out.push(this.event('response.reasoning_text.done', { ...base, text: open.text }));
    out.push(this.partEvent('done', open, { type: 'reasoning_text', text: open.text }));
    this.fillText(open);
    open.item.status = status;
    out.push(this.event('response.output_item.done', { output_index: open.index, item: open.item }));
  }

  /** Closes the open reasoning and message items (a new item is about to start, or the end). */
  private closeText(out: ResponsesStreamEvent[], status: 'completed' | 'incomplete' = 'completed'): void {
    this.closeReasoning(out, status);
    const open = this.message;
    if (open === null) return;
    this.message = null;
    const base = { item_id: open.item.id, output_index: open.index, content_index: 0 };
    out.push(this.event('response.output_text.done', { ...base, text: open.text, logprobs: [] }));
    out.push(this.partEvent('done', open, { type: 'output_text', text: open.text, annotations: [], logprobs: [] }));
    this.fillText(open);
    open.item.status = status;
    out.push(this.event('response.output_item.done', { output_index: open.index, item: open.item }));
  }

  private closeCall(open: Open<FunctionCallItem>, out: ResponsesStreamEvent[]): void {
    open.item.arguments = open.text;
    open.item.status = 'completed';
    out.push(
      this.event('response.function_call_arguments.done', {
        item_id: open.item.id,
        output_index: open.index,
        name: open.item.name,
        arguments: open.text,
      }),
    );
    out.push(this.event('response.output_item.done', { output_index: open.index, item: open.item }));
  }
}

/** One event as SSE text: `event: <type>` and its JSON, as OpenAI writes them. */
export function sseEvent(event: ResponsesStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
