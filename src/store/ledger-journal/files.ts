import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** Which journal wrote a segment: its host, its process and the journal instance in that process. */
export interface SegmentOwner {
  host: string;
  pid: number;
  /** Random per journal: two servers in one process (tests, an in-process restart) never share files. */
  instance: string;
}

/** One segment file of one journal: `ledger-<host>-<pid>-<instance>-<seq>.jnl`. */
export const segmentName = (owner: SegmentOwner, seq: number): string =>
  `ledger-${owner.host}-${owner.pid}-${owner.instance}-${seq}.jnl`;

const SEGMENT = /^ledger-(.+)-(\d+)-([0-9a-f]+)-(\d+)\.jnl$/;

export function parseSegmentName(name: string): (SegmentOwner & { seq: number }) | null {
  const m = SEGMENT.exec(name);
  if (m === null || m[1] === undefined || m[2] === undefined || m[3] === undefined || m[4] === undefined) return null;
  return { host: m[1], pid: Number(m[2]), instance: m[3], seq: Number(m[4]) };
}

/** The journal instances open in this process (a segment of one of them is never replayed). */
const liveInstances = new Set<string>();

export const journalInstances = {
  add: (instance: string): void => void liveInstances.add(instance),
  delete: (instance: string): void => void liveInstances.delete(instance),
  has: (instance: string): boolean => liveInstances.has(instance),
};

/** This host's name as used in segment names (no path separators). */
export const journalHost = (): string => hostname().replace(/[^A-Za-z0-9_.-]/g, '_') || 'localhost';

/** Whether a process of this id runs on this host (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/** What identifies a database: the SQLite file, or PostgreSQL host, port and database (no credentials). */
function databaseIdentity(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) return `sqlite:${resolve(databaseUrl.slice('sqlite:'.length))}`;
  const url = new URL(databaseUrl);
  return `postgres://${url.hostname}:${url.port || '5432'}${url.pathname}`;
}

/**
 * The journal directory of one database: `<base>/ledger-journal-<digest of the database>`, so a
 * journal is only ever replayed into the database it was written for. `base` defaults to the
 * SQLite file's directory, or `./data` for PostgreSQL. Null for an in-memory SQLite database.
 */
export function journalDirectory(databaseUrl: string, base: string | null): string | null {
  if (databaseUrl === 'sqlite::memory:') return null;
  const identity = databaseIdentity(databaseUrl);
  const root =
    base ?? (databaseUrl.startsWith('sqlite:') ? dirname(resolve(databaseUrl.slice('sqlite:'.length))) : './data');
  const digest = createHash('sha256').update(identity).digest('hex').slice(0, 12);
  return resolve(join(root, `ledger-journal-${digest}`));
}
