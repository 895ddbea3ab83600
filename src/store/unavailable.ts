/**
 * Whether an error means "the database cannot be reached right now" (refused, reset, timed out,
 * shutting down, starting up, too many connections, SQLite locked past busy_timeout) rather than
 * a bug or bad data. Such errors become 503 (retry), never 500. Looks through `cause` chains and
 * AggregateErrors (a connection attempt to several addresses).
 */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, class 08.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
]);

const MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/i,
  /^Client has encountered a connection error/,
];

export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && CODES.has(code)) return true;
  if (error instanceof Error && MESSAGES.some((m) => m.test(error.message))) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isStoreUnavailable(e, depth + 1))) return true;
  return error instanceof Error && error.cause !== undefined && isStoreUnavailable(error.cause, depth + 1);
}
