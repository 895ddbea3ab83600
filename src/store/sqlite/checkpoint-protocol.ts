// What the main thread (checkpointer.ts) and the checkpoint thread (checkpoint-worker.ts) share.
// Imports nothing: the worker loads it.

/** `state[0]`: 0 while running; the main thread sets CLOSE_REQUESTED, the worker CLOSED once its connection is closed. */
export const CLOSE_REQUESTED = 1;
export const CLOSED = 2;

export interface CheckpointWorkerData {
  filename: string;
  intervalMs: number;
  journalSizeLimit: number;
  /** A fully copied WAL of at least this many frames is reset by the worker itself (TRUNCATE). */
  truncateFrames: number;
  /** One Int32 (see CLOSE_REQUESTED), so closing the store can wait for the worker synchronously. */
  state: SharedArrayBuffer;
}

/**
 * The result of one `PRAGMA wal_checkpoint(PASSIVE)`. The worker reports those that found new
 * frames, and answers every `report` message (the main thread awaits it) whatever it found.
 */
export interface CheckpointResult {
  /** 1 when the checkpoint could not run at all (another checkpoint held the lock). */
  busy: number;
  /** Frames in the WAL. */
  log: number;
  /** Frames copied back into the database file (all of them when equal to `log`). */
  checkpointed: number;
  /** The worker reset the WAL to empty (TRUNCATE) after this checkpoint. */
  truncated: boolean;
  /** It found frames the previous checkpoint had not seen (false: an answer to `report` about an unchanged WAL). */
  changed: boolean;
  /** Time the checkpoint took on the worker thread. */
  ms: number;
}

export type CheckpointMessage = { type: 'ready' } | ({ type: 'checkpoint' } & CheckpointResult);
