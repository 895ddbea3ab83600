import type { ServerResponse } from 'node:http';

/** Queued event text past which it is written at once rather than at the end of the turn. */
const FLUSH_CHARS = 16 * 1024;

/**
 * Writes one SSE response. Headers are committed lazily: either when the first event is ready,
 * or when waiting has lasted `keepAliveAfterMs` (then comment lines keep the connection alive
 * and later failures can only be reported in-band).
 *
 * Events written in one turn of the event loop (typically all those parsed from one upstream
 * read) are joined into one string and leave in one `res.write` on a `setImmediate`: one chunk of
 * the chunked body and one syscall per burst instead of a write (four buffered pieces with the
 * chunk framing) per event, and no event waits longer than the current turn. The check phase
 * rather than `process.nextTick`: there the writes of every stream that read in this turn leave
 * together after the poll phase, which costs the process less CPU under many concurrent streams
 * than a write inside each read's callback (docs/performance.md). Past `FLUSH_CHARS` the text is
 * written at once. Backpressure: `data()` returns a promise while the response needs a drain.
 */
export class SseWriter {
  private committed = false;
  private pending = '';
  private scheduled = false;
  private readonly flush = (): void => {
    this.scheduled = false;
    this.writePending();
  };
  private keepAlive: NodeJS.Timeout | null = null;
  private firstWait: NodeJS.Timeout | null = null;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: { keepAliveAfterMs: number; keepAliveEveryMs: number; headers: Record<string, string> },
  ) {}

  get headersSent(): boolean {
    return this.committed;
  }

  /** Starts the wait: after `keepAliveAfterMs` without an event, commit and send comments. */
  startWaiting(): void {
    this.firstWait = setTimeout(() => {
      this.commit();
      this.comment('SWITCHYARD PROCESSING');
      this.keepAlive = setInterval(() => this.comment('SWITCHYARD PROCESSING'), this.options.keepAliveEveryMs);
    }, this.options.keepAliveAfterMs);
  }

  stopWaiting(): void {
    if (this.firstWait !== null) clearTimeout(this.firstWait);
    if (this.keepAlive !== null) clearInterval(this.keepAlive);
    this.firstWait = null;
    this.keepAlive = null;
  }

  commit(): void {
    if (this.committed) return;
    this.committed = true;
    this.res.writeHead(200, sseHeaders(this.options.headers));
  }

  /** Queues one `data:` event for this turn's write; resolves when the socket can take more (backpressure). */
  data(payload: string): Promise<void> | undefined {
    return this.queue('data: ' + payload + '\n\n');
  }

  /** The same for a named event (`event: <name>` then its data), as the Messages API streams. */
  event(name: string, payload: string): Promise<void> | undefined {
    return this.queue('event: ' + name + '\ndata: ' + payload + '\n\n');
  }

  private queue(text: string): Promise<void> | undefined {
    this.commit();
    if (this.res.writableEnded || this.res.destroyed) return undefined;
    this.pending += text;
    if (this.pending.length >= FLUSH_CHARS) this.writePending();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
    if (this.res.writableNeedDrain) return this.drained();
    return undefined;
  }

  private writePending(): void {
    if (this.pending.length === 0) return;
    const text = this.pending;
    this.pending = '';
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(text);
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }

  comment(text: string): void {
    this.writePending();
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(`: ${text}\n\n`);
  }

  /** Ends the stream with `data: [DONE]` (OpenAI's end marker), or with `trailer` when given. */
  end(trailer = 'data: [DONE]\n\n'): void {
    this.stopWaiting();
    const rest = this.pending;
    this.pending = '';
    if (!this.res.writableEnded && !this.res.destroyed) {
      this.commit();
      this.res.end(rest + trailer);
    }
  }
}

/**
 * The call's headers, then the stream's (a name the call's has keeps its place and takes the
 * stream's value). Copied and then assigned: in V8 an object literal that starts with a spread
 * and adds keys the copy lacks (`{ ...headers, 'content-type': … }`) builds a new hidden class
 * for every object. The call's headers are the gateway's own names (no `__proto__`).
 */
function sseHeaders(call: Record<string, string>): Record<string, string> {
  const headers = Object.assign({}, call);
  headers['content-type'] = 'text/event-stream; charset=utf-8';
  headers['cache-control'] = 'no-cache';
  headers.connection = 'keep-alive';
  headers['x-accel-buffering'] = 'no';
  return headers;
}
