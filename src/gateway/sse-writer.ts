import type { ServerResponse } from 'node:http';

/**
 * Writes one SSE response. Headers are committed lazily: either when the first event is ready,
 * or when waiting has lasted `keepAliveAfterMs` (then comment lines keep the connection alive
 * and later failures can only be reported in-band).
 *
 * Events written in one turn of the event loop (typically all those parsed from one upstream
 * read) leave in one socket write: the response is corked at the first event and uncorked by a
 * `setImmediate`, so a burst costs one syscall instead of one per event, and no event waits
 * longer than the current turn.
 */
export class SseWriter {
  private committed = false;
  private corked = false;
  private readonly flush = (): void => {
    if (!this.corked) return;
    this.corked = false;
    this.res.uncork();
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
    this.res.writeHead(200, {
      ...this.options.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
  }

  /** Writes one `data:` event; resolves when the socket can take more (backpressure). */
  data(payload: string): Promise<void> | void {
    this.commit();
    if (this.res.writableEnded || this.res.destroyed) return;
    if (!this.corked) {
      this.corked = true;
      this.res.cork();
      setImmediate(this.flush);
    }
    if (!this.res.write(`data: ${payload}\n\n`)) {
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
  }

  comment(text: string): void {
    if (!this.res.writableEnded && !this.res.destroyed) this.res.write(`: ${text}\n\n`);
  }

  end(): void {
    this.stopWaiting();
    this.corked = false; // end() uncorks the socket fully
    if (!this.res.writableEnded && !this.res.destroyed) {
      this.commit();
      this.res.end('data: [DONE]\n\n');
    }
  }
}
