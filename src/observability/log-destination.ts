import pino from 'pino';

/**
 * Standard output written asynchronously: log lines are buffered and written by one pending
 * write at a time, so a busy gateway makes one `write(2)` per batch instead of one per line
 * (three lines per model call at `info`). pino flushes the buffer synchronously when the
 * process exits; `flushSync` is for a graceful close.
 */
export function asyncStdout(): ReturnType<typeof pino.destination> {
  return pino.destination({ dest: 1, sync: false });
}
