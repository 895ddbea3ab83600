import type { Clock } from '../common/clock.js';
import { newUuid } from '../common/ids.js';
import type { AuditActor, AuditEntry, AuditRepository, WriteContext } from './types.js';

/** Field names whose values are never written to the audit log, at any depth. */
const SECRET = /token|secret|digest|password|api_?key|^key$/i;

function cleanValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanValue);
  if (value === null || typeof value !== 'object') return value;
  return cleanObject(Object.fromEntries(Object.entries(value)));
}

function cleanObject(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (inner === undefined) continue;
    out[name] = SECRET.test(name) ? '[redacted]' : cleanValue(inner);
  }
  return out;
}

/** The changed fields as recorded: secrets replaced by `"[redacted]"`, undefined values dropped. */
export function auditChanges(changes: Record<string, unknown> | null): Record<string, unknown> | null {
  return changes === null ? null : cleanObject(changes);
}

/**
 * Records one management write. Call it with the transaction's audit repository, inside the
 * transaction that makes the change, so that the record and the change commit or roll back
 * together.
 */
export async function recordAudit(
  audit: AuditRepository,
  entry: AuditEntry,
  context: { ctx: WriteContext; clock: Clock },
): Promise<void> {
  await audit.insert({
    id: newUuid(),
    at: context.clock.now().toISOString(),
    actor: context.ctx.actor,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    changes: auditChanges(entry.changes),
  });
}

/** Actors that are not a request's key. */
export const CLI_ACTOR: AuditActor = { kind: 'cli', memberId: null, keyHash: null };
export const SYSTEM_ACTOR: AuditActor = { kind: 'system', memberId: null, keyHash: null };
export const asCli: WriteContext = { actor: CLI_ACTOR };
export const asSystem: WriteContext = { actor: SYSTEM_ACTOR };

/** What `auditedWrite` needs of a service's dependencies: its transaction runner and clock. */
export interface AuditedDeps<R extends { audit: AuditRepository }> {
  transaction<U>(fn: (repos: R) => Promise<U>): Promise<U>;
  clock: Clock;
}

/**
 * Runs one management write in a transaction and records its audit entry in that transaction:
 * `write` makes the change and returns its result with the entry describing it. A write that
 * throws (a 4xx) rolls back and records nothing.
 *
 *   return auditedWrite(this.deps, ctx, async (repos) => {
 *     const row = await repos.things.insert(…);
 *     return { result: row, entry: { action: 'thing.create', targetType: 'thing', targetId: row.id, changes: {…} } };
 *   });
 */
export function auditedWrite<R extends { audit: AuditRepository }, T>(
  deps: AuditedDeps<R>,
  ctx: WriteContext,
  write: (repos: R) => Promise<{ result: T; entry: AuditEntry }>,
): Promise<T> {
  return deps.transaction(async (repos) => {
    const { result, entry } = await write(repos);
    await recordAudit(repos.audit, entry, { ctx, clock: deps.clock });
    return result;
  });
}

/** Top-level field names in the API's snake_case (`limitUsd` → `limit_usd`), for audit entries. */
export function apiFieldNames(fields: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
  );
}
