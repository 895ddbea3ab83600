import pino from 'pino';

/** A line waits at most this long before it is handed to the writer. */
export const LOG_BATCH_MS = 10;

type Writer = Pick<ReturnType<typeof pino.destination>, 'write' | 'flush' | 'flushSync'>;

const live = new Set<BatchedLogDestination>();
let exitHooked = false;

/** On exit (process.exit, the end of the event loop, an uncaught exception) nothing is lost. */
function flushAllOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const destination of live) destination.flushSync();
  });
}

/**
 * The log stream: lines are collected for up to `LOG_BATCH_MS` and handed to pino's asynchronous
 * standard-output writer (sonic-boom) as one string. Handing it every line costs a libuv write
 * request, its thread-pool syscall and completion, and the writer flattening its growing buffer
 * to measure it, per line: most of what one log line costs a model call (docs/performance.md).
 * Lines keep their order; they appear at most `LOG_BATCH_MS` later; `flushSync()` (called on
 * exit) writes everything at once.
 */
export class BatchedLogDestination {
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly writer: Writer) {
    live.add(this);
    flushAllOnExit();
  }

  write(line: string): boolean {
    this.pending.push(line);
    if (this.timer === null) {
      this.timer = setTimeout(this.handOver, LOG_BATCH_MS);
      this.timer.unref();
    }
    return true;
  }

  /** pino's `logger.flush(cb)`: hands over what is pending, then lets the writer flush. */
  flush(cb?: (err?: Error) => void): void {
    this.handOver();
    this.writer.flush(cb);
  }

  flushSync(): void {
    this.handOver();
    this.writer.flushSync();
  }

  /** Stops batching for this destination (what is pending is written first). */
  close(): void {
    this.handOver();
    live.delete(this);
  }

  private readonly handOver = (): void => {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const data = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join('');
    this.pending = [];
    this.writer.write(data);
  };
}

/** Standard output, batched (see `BatchedLogDestination`) over pino's asynchronous destination. */
export function asyncStdout(): BatchedLogDestination {
  return new BatchedLogDestination(pino.destination({ dest: 1, sync: false }));
}
