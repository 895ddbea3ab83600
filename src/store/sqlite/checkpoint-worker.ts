// The body of the WAL checkpoint thread started by checkpointer.ts. It owns a second connection
// to the database file and runs `PRAGMA wal_checkpoint(PASSIVE)` every `intervalMs`, so the
// checkpoint's page copies and fsyncs happen here and never inside a commit on the main thread.
// PASSIVE never waits for, nor blocks, the main connection's readers and writers.
//
// Kept tiny on purpose (a worker isolate costs memory for everything it loads): node builtins and
// better-sqlite3 only; nothing from the rest of the project.
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { CLOSE_REQUESTED, CLOSED, type CheckpointMessage, type CheckpointWorkerData } from './checkpoint-protocol.js';

function config(value: unknown): CheckpointWorkerData {
  if (typeof value !== 'object' || value === null) throw new Error('checkpoint worker: no workerData');
  const v = value as Record<string, unknown>;
  const { filename, intervalMs, journalSizeLimit, truncateFrames, state } = v;
  if (
    typeof filename !== 'string' ||
    typeof intervalMs !== 'number' ||
    typeof journalSizeLimit !== 'number' ||
    typeof truncateFrames !== 'number'
  ) {
    throw new Error('checkpoint worker: bad workerData');
  }
  if (!(state instanceof SharedArrayBuffer)) throw new Error('checkpoint worker: no shared state');
  return { filename, intervalMs, journalSizeLimit, truncateFrames, state };
}

const { filename, intervalMs, journalSizeLimit, truncateFrames, state } = config(workerData);
const flag = new Int32Array(state);
const port = parentPort;
if (port === null) throw new Error('checkpoint worker: not in a worker thread');

const db = new BetterSqlite3(filename, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
// The limit applies to whichever connection resets the WAL; both connections carry it.
db.pragma(`journal_size_limit = ${journalSizeLimit}`);
// This connection never writes, but if it ever committed it must not checkpoint inside that commit either.
db.pragma('wal_autocheckpoint = 0');
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
// Never wait for a lock: a checkpoint that would have to wait reports busy instead, and above
// all the TRUNCATE below never holds the write lock while it waits for readers.
db.pragma('busy_timeout = 0');

type Row = { busy: number; log: number; checkpointed: number };

function send(message: CheckpointMessage): void {
  port?.postMessage(message);
}

let timer: NodeJS.Timeout | undefined;
let lastLog = -1;
let lastCheckpointed = -1;

function close(): void {
  if (timer !== undefined) clearInterval(timer);
  timer = undefined;
  // When this is the last connection, close() itself checkpoints everything and removes the WAL.
  if (db.open) db.close();
  Atomics.store(flag, 0, CLOSED);
  Atomics.notify(flag, 0);
  port?.close();
}

/** `reply`: the main thread asked for this checkpoint and awaits its result, changed or not. */
function tick(reply = false): void {
  if (Atomics.load(flag, 0) !== 0) return close();
  const started = performance.now();
  let row = passive.get() as Row;
  // log: frames in the WAL; checkpointed: frames copied back into the database. When all are
  // copied, the next commit starts the WAL again from its beginning, but only when its read
  // snapshot began after this checkpoint; a commit that began during it appends instead. Under
  // steady writes that can repeat until the WAL is large: then, with everything copied, reset it
  // here (TRUNCATE takes the write lock only if free, for a header write and a truncate).
  let truncated = false;
  if (row.busy === 0 && row.log >= truncateFrames && row.log === row.checkpointed) {
    const after = truncate.get() as Row;
    truncated = after.busy === 0 && after.log === 0;
    if (truncated) row = after;
  }
  const changed = truncated || ((row.log !== lastLog || row.checkpointed !== lastCheckpointed) && row.log > 0);
  lastLog = row.log;
  lastCheckpointed = row.checkpointed;
  if (changed || reply) {
    send({
      type: 'checkpoint',
      busy: row.busy,
      log: row.log,
      checkpointed: row.checkpointed,
      truncated,
      changed,
      ms: performance.now() - started,
    });
  }
}

port.on('message', (message: unknown) => {
  if (message === 'close') close();
  else if (message === 'checkpoint') tick();
  else if (message === 'report') tick(true);
});
if (Atomics.load(flag, 0) === CLOSE_REQUESTED) close();
else {
  timer = setInterval(tick, intervalMs);
  send({ type: 'ready' });
}
