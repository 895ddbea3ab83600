import {
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
 * The ledger journal of one process: settled generations appended as JSON lines to its own
 * segment files, `ledger-<host>-<pid>-<instance>-<seq>.jnl`. `append` is one write(2) into the page cache,
 * before the answer's last byte is sent: it survives the process being killed (the kernel owns
 * the page cache) but not a power loss before the background fdatasync of the next flush tick.
 * A segment whose records are all committed is truncated (the active one) or removed.
 * docs/metering.md, "The ledger journal".
 */
export class FileLedgerJournal implements LedgerJournal {
  private readonly segments = new Map<number, Segment>();
  private active: Segment;
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
    const line = Buffer.from(`${JSON.stringify({ t: settledAtMs, g: generation })}\n`);
    const segment = this.active;
    let written = 0;
    try {
      while (written < line.length) written += writeSync(segment.fd, line, written, line.length - written);
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
    segment.bytes += line.length;
    this.dirty = true;
    if (segment.bytes >= this.rotateBytes) {
      this.syncSegment(segment);
      this.active = this.open(segment.seq + 1);
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
      if (segment === this.active) {
        // O_APPEND: the next record goes to the start of the emptied file.
        ftruncateSync(segment.fd, 0);
        segment.bytes = 0;
        this.torn = false;
      } else {
        this.retire(segment, true);
      }
    }
  }

  /**
   * A write that failed part-way (the disk full) left a torn line: it is cut off, so the next
   * record starts a line of its own; when even that fails, the next records go to a new segment
   * (replay skips the torn last line of this one). Throws when neither works.
   */
  private cutTornTail(): void {
    const segment = this.active;
    try {
      ftruncateSync(segment.fd, segment.bytes);
    } catch (error) {
      this.options.log?.('ledger journal: a torn record could not be cut off; starting a new segment', error);
      this.active = this.open(segment.seq + 1);
      // Its records all committed: nothing would retire it later.
      if (segment.outstanding === 0) this.retire(segment, true);
    }
    this.torn = false;
  }

  sync(): void {
    if (!this.dirty || this.closed) return;
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
      this.retire(segment, clean || segment.outstanding === 0);
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
    // O_APPEND: after `ftruncate(0)` the next record goes to the start of the file.
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
      if (segment.closeAfterSync) closeSync(segment.fd);
    });
  }

  /** Forgets a segment: closes its file (after a running fdatasync) and, when `remove`, deletes it. */
  private retire(segment: Segment, remove: boolean): void {
    this.segments.delete(segment.seq);
    if (remove) {
      try {
        unlinkSync(segment.path);
      } catch (error) {
        this.options.log?.('ledger journal: a committed segment could not be removed', error);
      }
    }
    if (segment.syncing) segment.closeAfterSync = true;
    else closeSync(segment.fd);
  }
}
