import { Migrator, type Kysely } from 'kysely';
import type { AuditRepository } from '../domain/audit/types.js';
import type { LedgerRepository } from '../domain/accounting/types.js';
import type { GuardrailRepository } from '../domain/guardrails/types.js';
import type { KeyRepository } from '../domain/keys/types.js';
import type { MemberRepository } from '../domain/members/types.js';
import type { PresetRepository } from '../domain/presets/types.js';
import type { RateCountStore } from '../domain/accounting/rate-book.js';
import type { WorkspaceRepository } from '../domain/workspaces/types.js';
import type { ConsoleSessionRepository } from '../domain/console/types.js';
import type { AnalyticsRepository } from '../domain/analytics/types.js';
import type { StoredResponseRepository } from '../domain/responses/types.js';
import { migrationProvider } from './migrations/index.js';
import { readRestoreMarker } from './restore-marker.js';
import { openPostgres } from './postgres/connect.js';
import { postgresBatchWriter } from './postgres/ledger-writer.js';
import { createAuditRepository } from './repositories/audit.js';
import { createGuardrailRepository } from './repositories/guardrails.js';
import { createKeyRepository } from './repositories/keys.js';
import { createLedgerRepository } from './repositories/ledger.js';
import type { BatchWriter } from './repositories/ledger-rows.js';
import { createMemberRepository } from './repositories/members.js';
import { createPresetRepository } from './repositories/presets.js';
import { createRateCountRepository } from './repositories/rate-counts.js';
import { createWorkspaceRepository } from './repositories/workspaces.js';
import { createConsoleSessionRepository } from './repositories/console-sessions.js';
import { createAnalyticsRepository } from './repositories/analytics.js';
import { createStoredResponseRepository } from './repositories/stored-responses.js';
import { createRetentionRepository } from './repositories/retention.js';
import type { RetentionRepository } from '../domain/retention/types.js';
import type { Database } from './schema.js';
import { openSqlite } from './sqlite/connect.js';
import { sqliteBatchWriter } from './sqlite/ledger-writer.js';
import { withSqliteMigrationLock } from './sqlite/migration-lock.js';

export type Dialect = 'sqlite' | 'postgres';

/** Repositories over one connection or one transaction. */
export interface Repositories {
  members: MemberRepository;
  workspaces: WorkspaceRepository;
  keys: KeyRepository;
  ledger: LedgerRepository;
  guardrails: GuardrailRepository;
  presets: PresetRepository;
  consoleSessions: ConsoleSessionRepository;
  analytics: AnalyticsRepository;
  rateCounts: RateCountStore;
  /** Responses kept for `store: true` (migration 014). */
  storedResponses: StoredResponseRepository;
  /** Deletes of the retention pruner and its lease (docs/deploy.md, "Retention"). */
  retention: RetentionRepository;
  /** Management writes record here in their own transaction (`recordAudit`, src/domain/audit). */
  audit: AuditRepository;
}

export interface Store extends Repositories {
  readonly dialect: Dialect;
  /** Runs `fn` in one transaction; everything it does commits or rolls back together. */
  withTransaction<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * A value that changes when another process wrote to the store, so in-process caches know to
   * drop what they hold. `null` when the dialect has no such cheap signal.
   */
  externalChangeMarker(): number | null;
  /**
   * Changes only when the database was restored from a backup (`switchyard restore`); null when
   * it never was. State derived from the old content that no change-feed topic covers (budget
   * leases) is dropped when it changes.
   */
  restoreMarker(): Promise<string | null>;
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** `writeBatch`: the dialect's fixed-statement ledger writer, for the store's own connection. */
function repositories(db: Kysely<Database>, writeBatch?: BatchWriter): Repositories {
  return {
    members: createMemberRepository(db),
    workspaces: createWorkspaceRepository(db),
    keys: createKeyRepository(db),
    ledger: createLedgerRepository(db, writeBatch),
    guardrails: createGuardrailRepository(db),
    presets: createPresetRepository(db),
    consoleSessions: createConsoleSessionRepository(db),
    analytics: createAnalyticsRepository(db),
    rateCounts: createRateCountRepository(db),
    storedResponses: createStoredResponseRepository(db),
    retention: createRetentionRepository(db),
    audit: createAuditRepository(db),
  };
}

export function describeDatabaseUrl(url: string): Dialect {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new Error('SWITCHYARD_DATABASE_URL must start with sqlite: or postgres://');
}

export interface OpenStoreOptions {
  /**
   * SQLite only: run WAL checkpoints on a worker thread (default true, for the long-running
   * server). Short-lived processes (the CLI) pass false and keep SQLite's own checkpoints.
   */
  checkpointWorker?: boolean;
}

export function openStore(url: string, options: OpenStoreOptions = {}): Store {
  const dialect = describeDatabaseUrl(url);
  let db: Kysely<Database>;
  let marker: () => number | null = () => null;
  let writeBatch: BatchWriter;
  if (dialect === 'sqlite') {
    const conn = openSqlite(url, { checkpointWorker: options.checkpointWorker ?? true });
    db = conn.db;
    marker = conn.dataVersion;
    writeBatch = sqliteBatchWriter(conn.raw, db);
  } else {
    db = openPostgres(url).db;
    writeBatch = postgresBatchWriter(db);
  }
  return {
    dialect,
    ...repositories(db, writeBatch),
    withTransaction: (fn) => db.transaction().execute((trx) => fn(repositories(trx))),
    externalChangeMarker: () => marker(),
    restoreMarker: () => readRestoreMarker(db),
    async migrate() {
      // PostgreSQL: Kysely holds an advisory lock for the whole run. SQLite: one immediate transaction.
      const migrator = new Migrator({ db, provider: migrationProvider });
      const { error, results } =
        dialect === 'sqlite'
          ? await withSqliteMigrationLock(db, () => migrator.migrateToLatest(), {
              failed: (r) => r.error !== undefined,
            })
          : await migrator.migrateToLatest();
      if (error !== undefined) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    },
    async ping() {
      await db.selectFrom('store_meta').select('key').limit(1).execute();
    },
    close: () => db.destroy(),
  };
}
