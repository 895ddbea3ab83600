import type { GenerationRecord, JournalMark, LedgerJournal } from './types.js';

/**
 * The meter's side of the ledger journal: a journal that fails is logged, never fatal to a
 * call (that call is then only as safe as its batch).
 */
export class MeterJournal {
  private appendFailures = 0;

  constructor(
    private readonly journal: LedgerJournal | undefined,
    private readonly log: (msg: string, err?: unknown) => void,
  ) {}

  get enabled(): boolean {
    return this.journal !== undefined;
  }

  /** Appends before the answer ends; null without a journal or when the append failed. */
  append(record: GenerationRecord, settledAtMs: number): JournalMark | null {
    if (this.journal === undefined) return null;
    try {
      return this.journal.append(record, settledAtMs);
    } catch (error) {
      this.appendFailures += 1;
      if (this.appendFailures === 1 || this.appendFailures % 1000 === 0) {
        this.log(
          `meter: ledger journal append failed (${this.appendFailures} so far); those calls are lost if the process crashes before the next batch`,
          error,
        );
      }
      return null;
    }
  }

  /** The batch holding these marks committed: their records may leave the journal. */
  committed(marks: readonly (JournalMark | null)[]): void {
    if (this.journal === undefined) return;
    const held: JournalMark[] = [];
    for (const mark of marks) if (mark !== null) held.push(mark);
    try {
      this.journal.committed(held);
    } catch (error) {
      this.log('meter: ledger journal could not drop committed records (they are replayed harmlessly)', error);
    }
  }

  sync(): void {
    this.journal?.sync();
  }

  close(clean: boolean): void {
    try {
      this.journal?.close(clean);
    } catch (error) {
      this.log('meter: ledger journal did not close cleanly (its files are replayed at the next start)', error);
    }
  }
}
