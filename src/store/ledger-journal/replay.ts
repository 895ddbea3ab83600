import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { settledDeltas } from '../../domain/accounting/accounts.js';
import type { GenerationRecord, LedgerRepository, SpendDelta } from '../../domain/accounting/types.js';
import { journalInstances, parseSegmentName, processAlive, type SegmentOwner } from './files.js';
import { decodeRecord } from './record.js';

export interface ReplayResult {
  /** Segment files replayed and removed. */
  files: number;
  /** Records found in them (each written at most once: the ledger skips stored ids). */
  records: number;
  /** Lines that are not a whole record (a torn last line), skipped. */
  unreadable: number;
  /** Segments left alone: another host's name, or a process that still runs. */
  skipped: string[];
}

const BATCH = 200;

/**
 * Writes the journals of dead processes of this host into the store, then removes them: run at
 * start, before serving. Idempotent: the ledger inserts a generation only once (by id) and adds
 * spend only for rows it inserted, in the same transaction, so a record already written by its
 * batch before the crash, or a replay interrupted and run again, is never charged twice.
 */
export async function replayLedgerJournals(options: {
  dir: string;
  ledger: Pick<LedgerRepository, 'writeBatch'>;
  host: string;
  pid: number;
}): Promise<ReplayResult> {
  let names: string[];
  try {
    names = readdirSync(options.dir);
  } catch {
    return { files: 0, records: 0, unreadable: 0, skipped: [] };
  }
  const replay: string[] = [];
  const skipped: string[] = [];
  for (const name of names.sort()) {
    const owner = parseSegmentName(name);
    if (owner === null) continue;
    (ownerGone(owner, options) ? replay : skipped).push(name);
  }
  const result: ReplayResult = { files: 0, records: 0, unreadable: 0, skipped };
  for (const name of replay) {
    const path = join(options.dir, name);
    const text = readIfPresent(path);
    // Gone: another replica of this host replayed it meanwhile.
    if (text === null) continue;
    const seen = new Set<string>();
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i += BATCH) {
      const generations: GenerationRecord[] = [];
      const deltas: SpendDelta[] = [];
      for (const line of lines.slice(i, i + BATCH)) {
        if (line === '') continue;
        const entry = decodeRecord(line);
        if (entry === null) result.unreadable += 1;
        if (entry === null || seen.has(entry.generation.id)) continue;
        seen.add(entry.generation.id);
        generations.push(entry.generation);
        deltas.push(...settledDeltas(entry.generation, entry.settledAt));
      }
      // Removed only after every batch committed: a replay cut short is run again in full.
      if (generations.length > 0) await options.ledger.writeBatch(generations, deltas);
      result.records += generations.length;
    }
    removeIfPresent(path);
    result.files += 1;
  }
  return result;
}

/**
 * Whether a segment's writer is gone, so its records are this process's to replay: written on
 * this host (another host's processes cannot be checked), and either by a process that no longer
 * runs, or by this process's pid in a journal not open now (a predecessor of the same pid, as a
 * restarted container has; or an earlier server in this process stopped uncleanly).
 */
function ownerGone(owner: SegmentOwner, me: { host: string; pid: number }): boolean {
  if (owner.host !== me.host) return false;
  if (owner.pid === me.pid) return !journalInstances.has(owner.instance);
  return !processAlive(owner.pid);
}

const isMissing = (error: unknown): boolean => error instanceof Error && 'code' in error && error.code === 'ENOENT';

function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}
