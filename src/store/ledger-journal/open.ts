import type { LedgerJournal } from '../../domain/accounting/types.js';
import type { Store } from '../store.js';
import { journalDirectory, journalHost } from './files.js';
import { FileLedgerJournal } from './journal.js';
import { replayLedgerJournals } from './replay.js';

/**
 * At server start, before serving: writes what dead processes of this host left in the
 * database's journal directory into the ledger, then opens this process's own journal. Null when
 * the journal is off (or the database is in memory).
 */
export async function openLedgerJournal(
  config: { databaseUrl: string; ledgerJournal: { enabled: boolean; baseDir: string | null } },
  store: Pick<Store, 'ledger'>,
  log: { note: (msg: string) => void; warn: (msg: string, err?: unknown) => void },
): Promise<LedgerJournal | null> {
  if (!config.ledgerJournal.enabled) return null;
  const dir = journalDirectory(config.databaseUrl, config.ledgerJournal.baseDir);
  if (dir === null) return null;
  const host = journalHost();
  const replayed = await replayLedgerJournals({ dir, ledger: store.ledger, host, pid: process.pid });
  if (replayed.files > 0) {
    log.note(
      `ledger journal: ${replayed.records} generation(s) from ${replayed.files} segment(s) of a stopped process replayed`,
    );
  }
  if (replayed.unreadable > 0) {
    log.note(`ledger journal: skipped ${replayed.unreadable} torn line(s) (a write cut short by the crash)`);
  }
  if (replayed.skipped.length > 0) {
    log.note(
      `ledger journal: left ${replayed.skipped.length} segment(s) of running processes or other hosts in ${dir}`,
    );
  }
  return new FileLedgerJournal({ dir, host, pid: process.pid, log: log.warn });
}
