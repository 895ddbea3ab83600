import { errors } from '../../errors/index.js';
import type { AuditQuery, AuditRecord, AuditRepository } from './types.js';

export interface AuditPage {
  rows: AuditRecord[];
  /** Pass as `cursor` for the next (older) page; null when this page is the last. */
  next: string | null;
}

export type AuditFilter = Omit<AuditQuery, 'after' | 'limit'>;

const encode = (r: AuditRecord): string => Buffer.from(JSON.stringify([r.at, r.id])).toString('base64url');

function decode(cursor: string): { at: string; id: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [at, id] = parsed as unknown[];
      if (typeof at === 'string' && typeof id === 'string') return { at, id };
    }
  } catch {
    // Reported below as a 400 like any other malformed cursor.
  }
  throw errors.invalidRequest('cursor: not a cursor returned by this endpoint', { field: 'cursor' });
}

/** Reading the audit log, newest first, with cursor paging (GET /audit-log, `switchyard audit`). */
export class AuditLog {
  constructor(private readonly deps: { audit: AuditRepository }) {}

  async list(filter: AuditFilter, page: { cursor?: string | undefined; limit: number }): Promise<AuditPage> {
    for (const [field, value] of [
      ['since', filter.since],
      ['until', filter.until],
    ] as const) {
      if (value !== undefined && Number.isNaN(Date.parse(value)))
        throw errors.invalidRequest(`${field}: not an ISO-8601 date-time`, { field });
    }
    const rows = await this.deps.audit.list({
      ...filter,
      since: filter.since === undefined ? undefined : new Date(filter.since).toISOString(),
      until: filter.until === undefined ? undefined : new Date(filter.until).toISOString(),
      after: page.cursor === undefined ? null : decode(page.cursor),
      limit: page.limit + 1,
    });
    const more = rows.length > page.limit;
    const shown = more ? rows.slice(0, page.limit) : rows;
    const last = shown.at(-1);
    return { rows: shown, next: more && last !== undefined ? encode(last) : null };
  }
}
