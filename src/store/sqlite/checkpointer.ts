import { SHARE_ENV, Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import {
  CLOSE_REQUESTED,
  CLOSED,
  type CheckpointMessage,
  type CheckpointResult,
  type CheckpointWorkerData,
} from './checkpoint-protocol.js';

export type { CheckpointResult } from './checkpoint-protocol.js';

/** SQLite's own default, restored on the main connection whenever no worker checkpoints. */
const DEFAULT_AUTOCHECKPOINT = 1000;

export interface CheckpointerOptions {
  /** How often the worker runs `wal_checkpoint(PASSIVE)` on its own (default 1000 ms). */
  intervalMs?: number;
  /**
   * After a ledger batch commit the worker checkpoints at once, at most this often (default 1000 ms).
   * Each checkpoint that copies everything makes the next commit restart the WAL, and that commit
   * fsyncs the new WAL header on the main thread: restarting on every ledger batch raised the
   * commit median; once a second keeps it where it was (docs/performance.md).
   */
  minGapMs?: number;
  /** A fully checkpointed WAL of at least this many frames is reset by the worker (default 2048, ~8 MB). */
  truncateFrames?: number;
  /**
   * When the worker starts: this many ms after opening, or (the default, `'first-commit'`) at the
   * first ledger batch commit (`afterCommit`), the first write that makes checkpoints due. A
   * worker is a second V8 isolate with its own connection: a server that records no calls, and a
   * short-lived process (the CLI), never pays for it. Until it is ready SQLite checkpoints itself.
   */
  startDelayMs?: number | 'first-commit';
  /** `journal_size_limit` of the worker's connection (the main connection sets its own). */
  journalSizeLimit?: number;
  /** How many times a worker that died is started again before checkpoints go back to the main thread (default 3). */
  maxRestarts?: number;
  /** Wait before starting a worker that died again (default 1000 ms). */
  restartDelayMs?: number;
  log?: (msg: string, err?: unknown) => void;
  /** Called on the main thread for each checkpoint the worker reports (metrics, benchmarks). */
  onCheckpoint?: (result: CheckpointResult) => void;
}

export interface Checkpointer {
  /** Checkpoints the worker reported (one per checkpoint that found new frames), and the last one. */
  stats(): { checkpoints: number; restarts: number; running: boolean; last: CheckpointResult | null };
  /**
   * Tells the worker that a batch was just committed: it checkpoints right away (at most every
   * `minGapMs`), while the main connection is least likely to be writing, so the next commit finds
   * the WAL fully copied and starts it again from its beginning. A few ns when nothing is sent.
   */
  afterCommit(): void;
  /** Starts the worker now if it is not running yet (tests, benchmarks). Resolves once it is ready; rejects if it never will be. */
  startNow(): Promise<void>;
  /**
   * Asks the worker for a checkpoint now and resolves with its result, even when it found nothing
   * new. Rejects when no worker runs (not started, closed, or given up after `maxRestarts`).
   */
  nextCheckpoint(): Promise<CheckpointResult>;
  /**
   * Stops the worker: waits (at most ~2 s, synchronously) until it closed its connection, so the
   * database files are settled when this returns. Resolves `exited` once the thread is gone.
   */
  close(): void;
  readonly exited: Promise<void>;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(err: Error): void;
}

const notRunning = (): Error => new Error('the sqlite checkpoint worker is not running');

const WORKER_URL = new URL('./checkpoint-worker.js', import.meta.url);
const defaultLog = (msg: string, err?: unknown): void => {
  process.emitWarning(err instanceof Error ? `${msg}: ${err.message}` : msg);
};

/**
 * Moves WAL checkpoints of `raw` (a file database in WAL mode) to a worker thread: while the
 * worker runs, the main connection has `wal_autocheckpoint = 0`, so no commit on the main thread
 * ever copies pages back or fsyncs. Until the worker is ready, and again if it dies more than
 * `maxRestarts` times, the main connection checkpoints itself as SQLite does by default.
 */
export function startCheckpointer(
  raw: BetterSqlite3.Database,
  filename: string,
  options: CheckpointerOptions = {},
): Checkpointer {
  const log = options.log ?? defaultLog;
  const maxRestarts = options.maxRestarts ?? 3;
  const state = new SharedArrayBuffer(4);
  const flag = new Int32Array(state);
  const data: CheckpointWorkerData = {
    filename,
    intervalMs: options.intervalMs ?? 1000,
    journalSizeLimit: options.journalSizeLimit ?? -1,
    truncateFrames: options.truncateFrames ?? 2048,
    state,
  };
  let worker: Worker | null = null;
  let ready = false;
  let closing = false;
  let restarts = 0;
  let gaveUp = false;
  let checkpoints = 0;
  const minGapMs = options.minGapMs ?? 1000;
  let lastNudge = 0;
  let last: CheckpointResult | null = null;
  let readyWaiters: Waiter<void>[] = [];
  let checkpointWaiters: Waiter<CheckpointResult>[] = [];
  let resolveExited: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => (resolveExited = resolve));
  // Once no worker will ever run again, nobody may be left waiting for one (a test or benchmark would hang).
  const markExited = (): void => {
    const gone = notRunning();
    for (const waiter of [...readyWaiters, ...checkpointWaiters]) waiter.reject(gone);
    readyWaiters = [];
    checkpointWaiters = [];
    resolveExited();
  };

  // The worker never keeps the process alive, except while someone awaits it (startNow, nextCheckpoint).
  const holdWhileAwaited = (): void => {
    if (readyWaiters.length > 0 || checkpointWaiters.length > 0) worker?.ref();
    else worker?.unref();
  };

  const setAutocheckpoint = (pages: number): void => {
    if (raw.open) raw.pragma(`wal_autocheckpoint = ${pages}`);
  };

  const onMessage = (message: CheckpointMessage): void => {
    if (message.type === 'ready') {
      ready = true;
      setAutocheckpoint(0);
      for (const waiter of readyWaiters) waiter.resolve();
      readyWaiters = [];
      holdWhileAwaited();
      return;
    }
    const { busy, log: frames, checkpointed, truncated, changed, ms } = message;
    const result = { busy, log: frames, checkpointed, truncated, changed, ms };
    if (changed) {
      last = result;
      checkpoints += 1;
      options.onCheckpoint?.(result);
    }
    const waiters = checkpointWaiters;
    checkpointWaiters = [];
    for (const waiter of waiters) waiter.resolve(result);
    holdWhileAwaited();
  };

  const spawn = (): void => {
    if (closing || gaveUp || worker !== null) return;
    const w = new Worker(WORKER_URL, {
      workerData: data,
      env: SHARE_ENV,
      execArgv: [],
      // The worker holds one connection and a timer: a small heap is plenty.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    });
    worker = w;
    holdWhileAwaited();
    w.on('message', onMessage);
    // A request made to a worker that died since is asked again of this one.
    if (checkpointWaiters.length > 0) w.postMessage('report');
    w.on('error', (err) => log('sqlite checkpoint worker failed', err));
    w.on('exit', (code) => {
      worker = null;
      ready = false;
      if (closing) return markExited();
      // Back to checkpoints inside commits until a worker is ready again: the WAL must not grow unbounded.
      setAutocheckpoint(DEFAULT_AUTOCHECKPOINT);
      if (restarts >= maxRestarts) {
        gaveUp = true;
        log(`sqlite checkpoint worker exited (code ${code}); checkpoints run on the main connection from now on`);
        return markExited();
      }
      restarts += 1;
      log(`sqlite checkpoint worker exited (code ${code}); starting it again`);
      setTimeout(spawn, options.restartDelayMs ?? 1000).unref();
    });
  };

  const delay = options.startDelayMs ?? 'first-commit';
  const startTimer = typeof delay === 'number' && delay > 0 ? setTimeout(spawn, delay).unref() : null;
  if (typeof delay === 'number' && delay <= 0) spawn();
  let spawnOnCommit = delay === 'first-commit';

  const checkpointer: Checkpointer = {
    stats: () => ({ checkpoints, restarts, running: ready && !closing, last }),
    afterCommit() {
      if (spawnOnCommit) {
        spawnOnCommit = false;
        spawn();
      }
      if (!ready || worker === null) return;
      const now = performance.now();
      if (now - lastNudge < minGapMs) return;
      lastNudge = now;
      worker.postMessage('checkpoint');
    },
    startNow() {
      if (startTimer !== null) clearTimeout(startTimer);
      spawnOnCommit = false;
      spawn();
      if (ready) return Promise.resolve();
      if (worker === null) return Promise.reject(notRunning());
      const promise = new Promise<void>((resolve, reject) => readyWaiters.push({ resolve, reject }));
      holdWhileAwaited();
      return promise;
    },
    nextCheckpoint() {
      if (worker === null) return Promise.reject(notRunning());
      // A worker still starting up handles the request once it is ready (messages queue until then).
      worker.postMessage('report');
      const promise = new Promise<CheckpointResult>((resolve, reject) => checkpointWaiters.push({ resolve, reject }));
      holdWhileAwaited();
      return promise;
    },
    close() {
      if (closing) return;
      closing = true;
      if (startTimer !== null) clearTimeout(startTimer);
      const w = worker;
      if (w === null) return markExited();
      Atomics.store(flag, 0, CLOSE_REQUESTED);
      w.postMessage('close');
      // Held until its exit is seen (moments away), so awaiting `exited` cannot end the process early.
      w.ref();
      // A ready worker closes its connection within one checkpoint; one still starting up closes
      // it as soon as it opened it. Either way the files are settled before the caller moves on.
      Atomics.wait(flag, 0, CLOSE_REQUESTED, 2000);
      if (Atomics.load(flag, 0) !== CLOSED) void w.terminate();
    },
    exited,
  };
  byConnection.set(raw, checkpointer);
  return checkpointer;
}

const byConnection = new WeakMap<BetterSqlite3.Database, Checkpointer>();

/** The checkpointer started for this connection by openSqlite, if any (the ledger writer nudges it). */
export function checkpointerOf(raw: BetterSqlite3.Database): Checkpointer | undefined {
  return byConnection.get(raw);
}
