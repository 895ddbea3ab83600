import { Pool } from 'undici';

export interface UpstreamPoolOptions {
  /**
   * Max sockets per origin (default: no cap). A model call holds its socket for the whole
   * generation, so a cap does not pace anything: call N+1 just waits for a whole answer to end
   * (with 256, the 257th concurrent stream stalled for a full generation in the 512-stream test).
   */
  connections?: number | null;
  /** Idle keep-alive before a socket is closed (default 30 s). */
  keepAliveTimeoutMs?: number;
}

/**
 * One undici Pool per upstream origin (and connect timeout): keep-alive sockets, pipelining 1
 * (an LLM response can take minutes; never queue a second request behind it on one socket).
 */
export class UpstreamPools {
  private readonly pools = new Map<string, Pool>();
  private closed = false;

  constructor(private readonly options: UpstreamPoolOptions = {}) {}

  get(origin: string, connectMs: number): Pool {
    if (this.closed) throw new Error('UpstreamPools is closed');
    const key = `${origin}|${connectMs}`;
    let pool = this.pools.get(key);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: this.options.connections ?? null,
        pipelining: 1,
        keepAliveTimeout: this.options.keepAliveTimeoutMs ?? 30_000,
        keepAliveMaxTimeout: 600_000,
        connect: { timeout: connectMs },
      });
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** Number of pools (one per origin and connect timeout); for tests and metrics. */
  get size(): number {
    return this.pools.size;
  }

  /** Closes every pool; in-flight requests are aborted. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(all.map((p) => p.destroy().catch(() => undefined)));
  }
}
