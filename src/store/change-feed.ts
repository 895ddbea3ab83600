import {
  CHANGE_TOPICS,
  type ChangeFeed,
  type ChangeFeedObserver,
  type ChangeFeedState,
  type ChangeHandler,
  type ChangeTopic,
} from '../domain/common/changes.js';

export type LogFn = (msg: string, err?: unknown) => void;

/** Subscribers per topic and observers; a throwing handler is logged and never stops the others. */
export class ChangeDispatcher {
  private readonly handlers = new Map<ChangeTopic, Set<ChangeHandler>>();
  private readonly observers = new Set<ChangeFeedObserver>();

  constructor(private readonly log: LogFn = () => undefined) {}

  subscribe(topic: ChangeTopic, handler: ChangeHandler): () => void {
    let set = this.handlers.get(topic);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(topic, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  dispatch(topic: ChangeTopic, id: string | null): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(id);
      } catch (error) {
        this.log(`change feed: a ${topic} subscriber failed`, error);
      }
    }
  }

  observe(observer: ChangeFeedObserver): () => void {
    this.observers.add(observer);
    return () => {
      this.observers.delete(observer);
    };
  }

  /** Calls `fn` on every observer; an observer (metrics) never breaks the feed. */
  report(fn: (observer: ChangeFeedObserver) => void): void {
    for (const observer of this.observers) {
      try {
        fn(observer);
      } catch {
        // ignored on purpose
      }
    }
  }

  /** Tells every subscriber of every topic that anything may have changed. */
  dispatchAll(): void {
    for (const topic of CHANGE_TOPICS) this.dispatch(topic, null);
  }
}

export interface LocalChangeFeedOptions {
  /** Changes when another process wrote to the store (SQLite `PRAGMA data_version`); null: never. */
  externalChangeMarker?: () => number | null;
  /** How often the marker is also polled by a timer, for caches that do not call refresh(). */
  pollMs?: number;
  /**
   * refresh() reads the marker at most once per this many ms (default 5): reading it opens a
   * SQLite read transaction, which every authentication would otherwise pay. Another
   * process's write is then seen within this time; 0 reads on every refresh().
   */
  refreshEveryMs?: number;
  log?: LogFn;
}

/**
 * The feed of a single-process store (SQLite): publishing dispatches in-process; writes of other
 * processes on the same file (the CLI) are detected by the data_version marker, checked by
 * refresh() (at most every `refreshEveryMs`) and by a timer, and reported as "anything may have
 * changed" on every topic.
 */
export class LocalChangeFeed implements ChangeFeed {
  readonly kind = 'local' as const;
  private readonly dispatcher: ChangeDispatcher;
  private readonly marker: () => number | null;
  private lastMarker: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly refreshEveryMs: number;
  /** performance.now() of the last marker read by refresh(). */
  private lastRefreshAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: LocalChangeFeedOptions = {}) {
    this.refreshEveryMs = options.refreshEveryMs ?? 5;
    this.dispatcher = new ChangeDispatcher(options.log);
    this.marker = options.externalChangeMarker ?? (() => null);
    this.lastMarker = this.readMarker();
  }

  publish(topic: ChangeTopic, id: string | null): Promise<void> {
    this.dispatcher.dispatch(topic, id);
    return Promise.resolve();
  }

  subscribe(topic: ChangeTopic, handler: ChangeHandler): () => void {
    return this.dispatcher.subscribe(topic, handler);
  }

  observe(observer: ChangeFeedObserver): () => void {
    const stop = this.dispatcher.observe(observer);
    observer.stateChanged?.('live');
    return stop;
  }

  state(): ChangeFeedState {
    return 'live';
  }

  refresh(): void {
    if (this.refreshEveryMs > 0) {
      const now = performance.now();
      if (now - this.lastRefreshAt < this.refreshEveryMs) return;
      this.lastRefreshAt = now;
    }
    this.poll();
  }

  /** Reads the marker now and tells every subscriber if another process wrote since the last read. */
  private poll(): void {
    const marker = this.readMarker();
    if (marker === this.lastMarker) return;
    this.lastMarker = marker;
    this.dispatcher.dispatchAll();
  }

  start(): Promise<void> {
    const pollMs = this.options.pollMs ?? 500;
    if (this.timer === null && this.options.externalChangeMarker !== undefined && pollMs > 0) {
      this.timer = setInterval(() => this.poll(), pollMs);
      this.timer.unref();
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    return Promise.resolve();
  }

  private readMarker(): number | null {
    try {
      return this.marker();
    } catch {
      // A closed store has no marker any more; nothing new can be learnt from it.
      return this.lastMarker;
    }
  }
}
