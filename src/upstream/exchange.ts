import type { Dispatcher } from 'undici';
import { mapTransportError, type TransportErrorContext } from './transport-errors.js';
import { abortedError, protocolError, timeoutError, type UpstreamError } from './upstream-error.js';
import { ReadTimer } from './read-timer.js';
import { UpstreamSseParser } from './framing/sse-body.js';
import { UpstreamAwsEventParser } from './framing/aws-eventstream.js';
import type { EventPacedBody } from './framing/frame-batch.js';
import type { UpstreamHeaders, UpstreamResponse } from './response.js';

export type { UpstreamHeaders, UpstreamResponse } from './response.js';

export interface ExchangeSettings {
  ctx: TransportErrorContext;
  /** Epoch ms by which the response headers and the first body byte must have arrived. */
  firstByteDeadline: number;
  maxBodyBytes: number;
  maxEventBytes: number;
}

/** Buffered bytes a reader has not taken yet before the socket is paused (a Readable's 64 KiB). */
const PAUSE_BYTES = 64 * 1024;

const DONE: IteratorResult<Buffer, undefined> = Object.freeze({ done: true, value: undefined });
const EMPTY = Buffer.alloc(0);

/**
 * One upstream request as an undici dispatch handler, and its response. Body bytes are kept as
 * the Buffers undici hands over (no Readable, no async iteration when the whole body is read):
 * `text()` of a body that is already complete is one `Buffer.concat` and one decode. A body whose
 * declared or received length passes the limit is refused before it is buffered. The timeout
 * timer runs only while the headers are awaited and while a reader waits for bytes that have not
 * come, so a small body that arrives with its headers costs one timer, armed at dispatch and
 * cleared at the headers; progress only moves a deadline (`ReadTimer`), and the timeout error is
 * built only when it fires. The caller's AbortSignal has one listener for the whole exchange.
 */
export class UpstreamExchange implements Dispatcher.DispatchHandler, UpstreamResponse, EventPacedBody {
  status = 0;
  headers: UpstreamHeaders = {};
  private controller: Dispatcher.DispatchController | null = null;
  private resolveStart: ((res: UpstreamResponse) => void) | null = null;
  private rejectStart: ((err: UpstreamError) => void) | null = null;
  private parts: Buffer[] = [];
  private head = 0;
  private buffered = 0;
  private received = 0;
  private ended = false;
  private error: UpstreamError | null = null;
  private discarded = false;
  private used = false;
  /** A reader waiting for bytes: the pending `next()` of `chunks()`, or `text()` collecting. */
  private waiter: {
    resolve: (value: IteratorResult<Buffer, undefined>) => void;
    reject: (err: UpstreamError) => void;
  } | null = null;
  private collector: { limit: number; resolve: (text: string) => void; reject: (err: UpstreamError) => void } | null =
    null;
  private readonly timer = new ReadTimer(this);
  /** Epoch ms of the last progress: a body chunk, or with a frame parser attached a whole event or message. */
  private lastProgress = 0;
  private pacedByEvents = false;
  /** Epoch ms by which a `text()` read must have the whole body. */
  private bodyDeadline = 0;
  private listening = false;

  constructor(private readonly s: ExchangeSettings) {}

  /** Resolves at the response headers (any status); rejects with the mapped UpstreamError. */
  started(): Promise<UpstreamResponse> {
    return new Promise((resolve, reject) => {
      this.resolveStart = resolve;
      this.rejectStart = reject;
      if (this.error !== null) reject(this.error);
      else if (this.s.ctx.signal.aborted) this.handleEvent();
      else {
        this.s.ctx.signal.addEventListener('abort', this, { once: true });
        this.listening = true;
        this.timer.ensure(this.s.firstByteDeadline);
      }
    });
  }

  /** The caller's signal fired (EventListener object: no closure per call). */
  handleEvent(): void {
    this.fail(abortedError(this.s.ctx.providerId, this.s.ctx.signal.reason));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.error !== null) controller.abort(this.error);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: UpstreamHeaders): void {
    if (status < 200) return; // 1xx informational
    this.status = status;
    this.headers = headers;
    if (declaredLength(headers) > this.s.maxBodyBytes && status >= 200 && status < 300) {
      this.tooLarge(this.s.maxBodyBytes);
      return;
    }
    const resolve = this.resolveStart;
    this.resolveStart = null;
    this.rejectStart = null;
    // The headers' deadline is met; a body read arms the timer again while it waits.
    this.timer.clear();
    resolve?.(this);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.discarded) return;
    if (this.received === 0 || !this.pacedByEvents) this.lastProgress = Date.now();
    this.received += chunk.length;
    const waiter = this.waiter;
    if (waiter !== null) {
      this.waiter = null;
      waiter.resolve({ done: false, value: chunk });
      return;
    }
    this.parts.push(chunk);
    this.buffered += chunk.length;
    const collector = this.collector;
    if (collector !== null) {
      if (this.buffered > collector.limit) this.tooLarge(collector.limit);
    } else if (this.buffered > PAUSE_BYTES) controller.pause();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.stopListening();
    this.timer.clear();
    const waiter = this.waiter;
    if (waiter !== null) {
      this.waiter = null;
      waiter.resolve(DONE);
    }
    const collector = this.collector;
    if (collector !== null) {
      this.collector = null;
      collector.resolve(this.drainText());
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.fail(mapTransportError(err, this.s.ctx));
  }

  /** Called by the timer: only headers still awaited, or a reader still waiting, past its deadline time out. */
  timerFired(): void {
    if (this.waiter === null && this.collector === null && this.resolveStart === null) return;
    const now = Date.now();
    const deadline = this.deadline();
    if (now < deadline) {
      this.timer.ensure(deadline, now);
      return;
    }
    const { ctx } = this.s;
    this.fail(
      this.received === 0
        ? timeoutError(ctx.providerId, 'first byte', ctx.timeouts.firstByteMs)
        : timeoutError(ctx.providerId, this.collector !== null ? 'body' : 'idle', ctx.timeouts.idleMs),
    );
  }

  /** An event or comment of an SSE body (or a message of an event stream) was completed. */
  progress(): void {
    this.lastProgress = Date.now();
  }

  /** Fails the exchange from outside (an oversized event or message): frees the socket, rejects readers. */
  abortWith(err: UpstreamError): void {
    this.discarded = true;
    this.fail(err);
  }

  sseParser(): UpstreamSseParser {
    this.pacedByEvents = true;
    return new UpstreamSseParser(this, this.s.ctx.providerId, this.s.maxEventBytes);
  }

  awsEventParser(): UpstreamAwsEventParser {
    this.pacedByEvents = true;
    return new UpstreamAwsEventParser(this, this.s.ctx.providerId, this.s.maxEventBytes);
  }

  chunks(): AsyncIterable<Buffer> {
    this.claim();
    const iterator: AsyncIterableIterator<Buffer> = {
      next: () => this.next(),
      return: () => {
        this.discard();
        return Promise.resolve(DONE);
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  text(maxBytes = this.s.maxBodyBytes): Promise<string> {
    this.claim();
    if (this.error !== null) return Promise.reject(this.error);
    if (this.buffered > maxBytes) return Promise.reject(this.tooLarge(maxBytes));
    if (this.ended) return Promise.resolve(this.drainText());
    return new Promise((resolve, reject) => {
      this.collector = { limit: maxBytes, resolve, reject };
      this.bodyDeadline = Math.max(this.s.firstByteDeadline, Date.now() + this.s.ctx.timeouts.idleMs);
      this.armTimer();
      this.controller?.resume();
    });
  }

  json(): Promise<unknown> {
    if (this.ended && this.error === null && !this.used && this.buffered <= this.s.maxBodyBytes) {
      try {
        return Promise.resolve(this.parse(this.drainTextOnce()));
      } catch (err) {
        return Promise.reject(
          err instanceof Error ? err : new Error('upstream body could not be parsed', { cause: err }),
        );
      }
    }
    return this.text().then((raw) => this.parse(raw));
  }

  discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    this.parts = [];
    this.buffered = 0;
    if (!this.ended && this.error === null)
      this.fail(abortedError(this.s.ctx.providerId, new Error('upstream body discarded')));
  }

  private next(): Promise<IteratorResult<Buffer, undefined>> {
    if (this.head < this.parts.length) {
      const chunk = this.parts[this.head] as Buffer;
      this.parts[this.head++] = EMPTY;
      this.buffered -= chunk.length;
      if (this.head === this.parts.length) {
        this.parts = [];
        this.head = 0;
      }
      if (this.buffered <= PAUSE_BYTES && this.controller?.paused === true) this.controller.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.discarded || this.ended) return Promise.resolve(DONE);
    if (this.error !== null) return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.armTimer();
      this.controller?.resume();
    });
  }

  private claim(): void {
    if (this.used) throw new Error('upstream body already consumed');
    this.used = true;
  }

  private drainTextOnce(): string {
    this.claim();
    return this.drainText();
  }

  private drainText(): string {
    const parts = this.head === 0 ? this.parts : this.parts.slice(this.head);
    this.parts = [];
    this.head = 0;
    this.buffered = 0;
    if (parts.length === 1) return (parts[0] as Buffer).toString('utf8');
    return Buffer.concat(parts).toString('utf8');
  }

  private parse(raw: string): unknown {
    try {
      return JSON.parse(raw) as unknown;
    } catch (err) {
      throw protocolError(this.s.ctx.providerId, 'Provider returned invalid JSON', err);
    }
  }

  private tooLarge(limit: number): UpstreamError {
    const err = protocolError(this.s.ctx.providerId, `Provider response exceeds ${limit} bytes`);
    this.discarded = true;
    this.parts = [];
    this.buffered = 0;
    this.fail(err);
    return err;
  }

  /**
   * When the waiting reader times out: the first-byte deadline until a byte came; then a whole-body
   * read at its body deadline, a chunk or event reader the idle timeout after the last progress.
   */
  private deadline(): number {
    if (this.received === 0) return this.s.firstByteDeadline;
    if (this.collector !== null) return this.bodyDeadline;
    return this.lastProgress + this.s.ctx.timeouts.idleMs;
  }

  private armTimer(): void {
    this.timer.ensure(this.deadline());
  }

  private stopListening(): void {
    if (this.listening) {
      this.listening = false;
      this.s.ctx.signal.removeEventListener('abort', this);
    }
  }

  /** Ends the exchange with `err` (first failure wins): aborts the request, rejects whoever waits. */
  private fail(err: UpstreamError): void {
    if (this.error !== null || this.ended) return;
    this.error = err;
    this.parts = [];
    this.buffered = 0;
    this.stopListening();
    this.timer.clear();
    if (this.controller !== null && !this.controller.aborted) this.controller.abort(err);
    const reject = this.rejectStart;
    this.resolveStart = null;
    this.rejectStart = null;
    reject?.(err);
    const waiter = this.waiter;
    if (waiter !== null) {
      this.waiter = null;
      waiter.reject(err);
    }
    const collector = this.collector;
    if (collector !== null) {
      this.collector = null;
      collector.reject(err);
    }
  }
}

/** The content-length an upstream declared (0 when absent or unreadable). */
function declaredLength(headers: UpstreamHeaders): number {
  const raw = headers['content-length'];
  const value = typeof raw === 'string' ? Number(raw) : NaN;
  return Number.isFinite(value) ? value : 0;
}
