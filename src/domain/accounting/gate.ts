/**
 * Readers (spend loads) run together; a writer (one ledger batch) runs alone. A waiting writer
 * stops new readers from starting, so neither side starves. This is what keeps a spend read
 * from seeing a batch half-counted: either the batch is in the database and out of the
 * in-memory pending sums, or it is in the pending sums and not in the database.
 */
export class ReadWriteGate {
  private readers = 0;
  private writer: Promise<unknown> | null = null;
  private idle: (() => void)[] = [];

  async read<T>(fn: () => Promise<T>): Promise<T> {
    while (this.writer !== null) await this.writer.catch(() => undefined);
    this.readers += 1;
    try {
      return await fn();
    } finally {
      this.readers -= 1;
      if (this.readers === 0) for (const wake of this.idle.splice(0)) wake();
    }
  }

  /** Callers run one write at a time (the meter drains sequentially). */
  write<T>(fn: () => Promise<T>): Promise<T> {
    const run = (async () => {
      if (this.readers > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
      return fn();
    })();
    const tracked = run.finally(() => {
      if (this.writer === tracked) this.writer = null;
    });
    this.writer = tracked;
    return tracked;
  }
}
