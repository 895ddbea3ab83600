import {
  close,
  closeSync,
  constants,
  fdatasync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { GenerationRecord, JournalMark, LedgerJournal } from '../../domain/accounting/types.js';
import { journalInstances, segmentName, type SegmentOwner } from './files.js';
import { encodeRecord } from './record.js';

interface Segment {
  seq: number;
  fd: number;
  path: string;
  /** Records appended and not yet committed to the store. */
  outstanding: number;
  bytes: number;
  /** An fdatasync of this file is running on the thread pool (close waits for it). */
  syncing: boolean;
  closeAfterSync: boolean;
}

/**
 * Closes on the thread pool. The file's name is already unlinked, so this close drops its last
 * reference and the kernel frees its blocks there (the stall a truncate on the main thread had).
 */
function closeInBackground(fd: number, log: ((msg: string, err?: unknown) => void) | undefined): void {
  close(fd, (error) => {
    if (error !== null) log?.('ledger journal: a retired segment could not be closed', error);
  });
}

export interface FileJournalOptions {
  /** The journal directory of this database (`journalDirectory`). */
  dir: string;
  host: string;
  pid: number;
  /** Default: random. Tests name it to build a segment of a given owner. */
  instance?: string;
  /** A segment this large is closed and a new one started (default 8 MiB). */
  rotateBytes?: number;
  log?: (msg: string, err?: unknown) => void;
}

/**
 * The ledger journal of one process: settled generations appended as JSON lines (record.ts) to its
 * own segment files, `ledger-<host>-<pid>-<instance>-<seq>.jnl`. `append` is one write(2) into the
 * page cache, before the answer's last byte is sent: it survives the process being killed (the
 * kernel owns the page cache) but not a power loss before the background fdatasync of the next
 * flush tick. A segment whose records are all committed is unlinked at once and closed on the
 * thread pool, which frees its blocks there; when it was the active one, a fresh empty file takes
 * its name. docs/metering.md, "The ledger journal".
 */
export class FileLedgerJournal implements LedgerJournal {
  private readonly segments = new Map<number, Segment>();
  /** Null only after a fresh segment could not be opened: the next append tries again. */
  private active: Segment | null;
  private nextSeq = 1;
  private readonly rotateBytes: number;
  private dirty = false;
  private closed = false;
  /** The active segment ends in a torn record (a write failed part-way) that is not cut off yet. */
  private torn = false;
  private readonly owner: SegmentOwner;

  constructor(private readonly options: FileJournalOptions) {
    mkdirSync(options.dir, { recursive: true });
    this.rotateBytes = options.rotateBytes ?? 8 * 1024 * 1024;
    this.owner = { host: options.host, pid: options.pid, instance: options.instance ?? randomBytes(4).toString('hex') };
    this.active = this.open(0);
    journalInstances.add(this.owner.instance);
  }

  append(generation: GenerationRecord, settledAtMs: number): JournalMark {
    if (this.closed) throw new Error('ledger journal is closed');
    if (this.torn) this.cutTornTail();
    const segment = (this.active ??= this.open(this.nextSeq++));
    const line = encodeRecord(generation, settledAtMs);
    const size = Buffer.byteLength(line);
    let written = 0;
    try {
      // The string is encoded by the write itself; a short write (a full disk) goes on from a buffer.
      written = writeSync(segment.fd, line);
      if (written < size) {
        const bytes = Buffer.from(line);
        while (written < size) written += writeSync(segment.fd, bytes, written, size - written);
      }
    } catch (error) {
      if (written > 0) {
        this.torn = true;
        try {
          this.cutTornTail();
        } catch {
          // Tried again before the next append.
        }
      }
      throw error;
    }
    segment.outstanding += 1;
    segment.bytes += size;
    this.dirty = true;
    if (segment.bytes >= this.rotateBytes) {
      this.syncSegment(segment);
      // This record is written: a segment that cannot be opened now is tried at the next append.
      this.active = this.fresh(null);
    }
    return segment.seq;
  }

  committed(marks: readonly JournalMark[]): void {
    const touched = new Set<Segment>();
    for (const seq of marks) {
      const segment = this.segments.get(seq);
      if (segment === undefined) continue;
      segment.outstanding -= 1;
      touched.add(segment);
    }
    for (const segment of touched) {
      if (segment.outstanding > 0) continue;
      const active = segment === this.active;
      // Every record in it is in the store (a replay of it would store nothing twice: the ledger
      // skips stored ids), so the name goes first and the file is closed off the main thread.
      this.retire(segment, { remove: true, background: true });
      if (!active) continue;
      this.torn = false;
      // The same name again, empty: one segment per journal while the store keeps up.
      this.active = this.fresh(segment.seq);
    }
  }

  /** A new active segment (named `seq` when that name is free, else the next number); null when none opens. */
  private fresh(seq: number | null): Segment | null {
    if (seq !== null) {
      try {
        return this.open(seq);
      } catch {
        // The name is still taken (its unlink failed and was logged): the next number instead.
      }
    }
    try {
      return this.open(this.nextSeq++);
    } catch (error) {
      this.options.log?.('ledger journal: a fresh segment could not be opened; the next append tries again', error);
      return null;
    }
  }

  /**
   * A write that failed part-way (the disk full) left a torn line: it is cut off, so the next
   * record starts a line of its own; when even that fails, the next records go to a new segment
   * (replay skips the torn last line of this one). Throws when neither works.
   */
  private cutTornTail(): void {
    const segment = this.active;
    if (segment !== null) {
      try {
        ftruncateSync(segment.fd, segment.bytes);
      } catch (error) {
        this.options.log?.('ledger journal: a torn record could not be cut off; starting a new segment', error);
        // Throws (the tail stays marked torn) when no new segment opens either.
        this.active = this.open(this.nextSeq++);
        // Its records all committed: nothing would retire it later.
        if (segment.outstanding === 0) this.retire(segment, { remove: true, background: true });
      }
    }
    this.torn = false;
  }

  sync(): void {
    if (!this.dirty || this.closed || this.active === null) return;
    this.dirty = false;
    this.syncSegment(this.active);
  }

  close(clean: boolean): void {
    if (this.closed) return;
    this.closed = true;
    journalInstances.delete(this.owner.instance);
    for (const segment of [...this.segments.values()]) {
      if (!clean && segment.outstanding > 0) {
        try {
          fsyncSync(segment.fd);
        } catch (error) {
          this.options.log?.('ledger journal: fsync at shutdown failed', error);
        }
      }
      this.retire(segment, { remove: clean || segment.outstanding === 0, background: false });
    }
    if (clean) {
      try {
        rmdirSync(this.options.dir);
      } catch {
        // Not empty (another process's segments) or already gone: either is fine.
      }
    }
  }

  private open(seq: number): Segment {
    const path = join(this.options.dir, segmentName(this.owner, seq));
    // O_APPEND: after a torn tail is cut off the next record goes to the file's new end.
    const segment: Segment = {
      seq,
      fd: openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND, 0o600),
      path,
      outstanding: 0,
      bytes: 0,
      syncing: false,
      closeAfterSync: false,
    };
    this.segments.set(seq, segment);
    return segment;
  }

  private syncSegment(segment: Segment): void {
    if (segment.syncing) return;
    segment.syncing = true;
    fdatasync(segment.fd, (error) => {
      segment.syncing = false;
      if (error !== null) this.options.log?.('ledger journal: fdatasync failed', error);
      if (segment.closeAfterSync) closeInBackground(segment.fd, this.options.log);
    });
  }

  /**
   * Forgets a segment: when `remove`, unlinks its name (a directory entry: the blocks stay while
   * the file is open), then closes it after a running fdatasync; `background` closes on the
   * thread pool (the main thread's path), else at once (shutdown).
   */
  private retire(segment: Segment, how: { remove: boolean; background: boolean }): void {
    this.segments.delete(segment.seq);
    if (how.remove) {
      try {
        unlinkSync(segment.path);
      } catch (error) {
        this.options.log?.('ledger journal: a committed segment could not be removed', error);
      }
    }
    if (segment.syncing) segment.closeAfterSync = true;
    else if (how.background) closeInBackground(segment.fd, this.options.log);
    else closeSync(segment.fd);
  }
}
