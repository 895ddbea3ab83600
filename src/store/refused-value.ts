/**
 * Whether an error is the database refusing a value it was given (PostgreSQL's class 22, "data
 * exception": text holding a NUL character, a number out of a column's range, an invalid text
 * representation). Validation refuses such values first where it can; this is the net under it,
 * so that such a request is a 400 and never a 500. The statement failed, so nothing was written.
 * Looks through `cause` chains.
 */
export function isRefusedValue(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) && typeof severity === 'string') return true;
  return error instanceof Error && error.cause !== undefined && isRefusedValue(error.cause, depth + 1);
}
