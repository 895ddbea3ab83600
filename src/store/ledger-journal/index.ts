export { FileLedgerJournal, type FileJournalOptions } from './journal.js';
export { replayLedgerJournals, type ReplayResult } from './replay.js';
export { journalDirectory, journalHost } from './files.js';
