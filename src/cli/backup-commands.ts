import { recordAudit, asCli } from '../domain/audit/record.js';
import { systemClock } from '../domain/common/clock.js';
import { openStore } from '../store/index.js';
import { BackupError, sqliteFileOf } from '../store/sqlite/backup-file.js';
import { backupSqlite } from '../store/sqlite/backup.js';
import { stageRestore } from '../store/sqlite/restore.js';
import type { CliContext, Command } from './commands.js';

interface BackupDeps {
  fail(message: string): Error;
}

/** The SQLite file of the configured database; PostgreSQL has its own tools. */
function databaseFile(ctx: CliContext, deps: BackupDeps, verb: 'back up' | 'restore'): string {
  const url = ctx.loadConfig(ctx.env).databaseUrl;
  const file = sqliteFileOf(url);
  if (file !== null) return file;
  if (url.startsWith('sqlite:'))
    throw deps.fail(`an in-memory SQLite database cannot be ${verb === 'back up' ? 'backed up' : 'restored'}`);
  throw deps.fail(
    `switchyard ${verb === 'back up' ? 'backup' : 'restore'} works on SQLite only; ` +
      `${verb} PostgreSQL with pg_dump/pg_restore or base backups and WAL archiving (docs/deploy.md, "Backups and restores")`,
  );
}

/** Runs `fn`; a BackupError is the operator's message (exit 1), anything else is rethrown. */
async function reporting(ctx: CliContext, fn: () => Promise<number>): Promise<number> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    ctx.io.err(`switchyard: ${error.message}`);
    return 1;
  }
}

const BACKUP_DETAILS = `Writes a consistent copy of the SQLite database named by SWITCHYARD_DATABASE_URL to FILE while
the server keeps running (SQLite's online backup: one moment of the database, WAL included). The
copy is one self-contained file, checked with integrity_check, written under a temporary name and
renamed when complete. An existing FILE is kept unless --force.
PostgreSQL: use pg_dump or base backups with WAL archiving (docs/deploy.md, "Backups and restores").`;

const RESTORE_DETAILS = `Replaces the whole SQLite database named by SWITCHYARD_DATABASE_URL with the backup FILE, also
while the server runs. FILE is checked first (a SQLite database, integrity_check ok, migrations
this version knows; a backup of a newer version is refused) and nothing changes if it fails.
Migrations it lacks are applied, the restore is recorded in its audit log, and it is copied into
the live file in one transaction. A running server notices within a second and re-reads keys,
guardrail policies and presets, and drops its budget leases. Needs --yes, or a "yes" typed at
the prompt when run in a terminal.`;

export function backupCommands(deps: BackupDeps): Record<string, Command> {
  return {
    backup: {
      usage: 'switchyard backup FILE [--force]',
      summary: 'Write a consistent backup of the SQLite database to FILE while the server runs',
      details: BACKUP_DETAILS,
      options: { force: { type: 'boolean' } },
      positionals: 1,
      run: ({ values, positionals }, ctx) =>
        reporting(ctx, async () => {
          const source = databaseFile(ctx, deps, 'back up');
          const result = await backupSqlite(source, positionals[0] ?? '', values.force === true);
          ctx.io.out(`backup written: ${result.path} (${result.bytes} bytes, integrity_check ok)`);
          return 0;
        }),
    },
    restore: {
      usage: 'switchyard restore FILE [--yes]',
      summary: 'Replace the SQLite database with a backup, also while the server runs',
      details: RESTORE_DETAILS,
      options: { yes: { type: 'boolean' } },
      positionals: 1,
      run: ({ values, positionals }, ctx) =>
        reporting(ctx, async () => {
          const live = databaseFile(ctx, deps, 'restore');
          const staged = await stageRestore(positionals[0] ?? '', live);
          try {
            const question = `Replace everything in ${live} with ${staged.source}? Type "yes" to continue: `;
            if (values.yes !== true) {
              if (ctx.confirm === undefined)
                throw deps.fail('restore replaces the whole database; pass --yes to confirm');
              if (!(await ctx.confirm(question))) {
                ctx.io.err('switchyard: restore cancelled; nothing changed');
                return 1;
              }
            }
            await recordRestore(staged.stagedUrl, staged.source, staged.applied);
            await staged.copyIn();
          } finally {
            staged.discard();
          }
          ctx.io.out(`restored ${live} from ${staged.source}`);
          if (staged.applied.length > 0) ctx.io.out(`applied migrations: ${staged.applied.join(', ')}`);
          return 0;
        }),
    },
  };
}

/** The restore's audit entry, written into the content being restored so it arrives with it. */
async function recordRestore(stagedUrl: string, source: string, applied: string[]): Promise<void> {
  const store = openStore(stagedUrl, { checkpointWorker: false });
  try {
    await store.withTransaction((repos) =>
      recordAudit(
        repos.audit,
        {
          action: 'database.restore',
          targetType: 'database',
          targetId: 'sqlite',
          changes: { source, applied_migrations: applied },
        },
        { ctx: asCli, clock: systemClock },
      ),
    );
  } finally {
    await store.close();
  }
}
