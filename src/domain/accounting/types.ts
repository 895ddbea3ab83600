import type { ApiType } from '../../wire/index.js';
import type { GatewayError } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import type { KeyRecord, LimitReset } from '../keys/types.js';
import type { KeyUsageReader } from '../keys/usage.js';

/** The API surfaces a generation can come from; each inbound codec names its own. */
export type { ApiType } from '../../wire/index.js';

/** One model call as metered: what was served, what it cost, how long it took. */
export interface GenerationRecord {
  /** 'gen-' + random; returned to clients as the response id. */
  id: string;
  requestId: string;
  keyHash: string;
  workspaceId: string;
  creatorUserId: string;
  /** Catalog slug actually served. */
  model: string;
  providerId: string;
  upstreamModel: string;
  upstreamId: string | null;
  /** The API surface the call came in on (`api_surface`; `api_type` is derived from it). */
  apiType: ApiType;
  streamed: boolean;
  cancelled: boolean;
  finishReason: string | null;
  nativeFinishReason: string | null;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  cachedTokens: number;
  /** Tokens counted by us because the upstream reported none. */
  usageEstimated: boolean;
  promptCostUsd: number;
  completionCostUsd: number;
  costUsd: number;
  /** Request start → first byte (stream) or response (non-stream), ms. */
  latencyMs: number;
  /** Request start → end, ms. */
  generationTimeMs: number;
  presetId: string | null;
  presetVersion: number | null;
  /** E.g. content-filter flags (prompt injection). */
  flags: string[];
  /** One entry per upstream attempt, fallbacks included. */
  attempts: GenerationAttempt[];
  /** ISO-8601. */
  createdAt: string;
  /** Who called (absent on records written before they were kept): the client's User-Agent. */
  userAgent?: string | null;
  /** The client's session (Claude Code's session id, `x-session-id`, a Responses `prompt_cache_key`). */
  sessionId?: string | null;
  /** The `Origin` (else `HTTP-Referer`) the call came with. */
  origin?: string | null;
  /** Set when the call was refused before (or instead of) an upstream call; absent or null: accepted. */
  refusal?: Refusal | null;
}

/** A value of a refusal's details: what the error named (a rule, a guardrail id, a limit). */
export type RefusalDetail = string | number | boolean | null | readonly string[];

/**
 * Why a call was refused (docs/metering.md, "Refused calls"): the status and code the client
 * got, the gateway's own message and the rule, guardrail or budget it named. Never prompt text.
 */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  details: Readonly<Record<string, RefusalDetail>>;
  /** How many refusals the record stands for: 1, or the sum of a key's refusals beyond the recorded rate. */
  count: number;
}

export interface GenerationAttempt {
  provider: string;
  model: string;
  status: number | null;
}

/** Money held for one in-flight call on every account it was checked against; settle or release it exactly once (repeats are no-ops). */
export interface Reservation {
  readonly accounts: readonly string[];
  readonly amountUsd: number;
}

/**
 * A spending cap checked before a call, besides the key's own `limit` (which the meter checks
 * itself): a guardrail's `limit_usd` for one assignee. `account` is whose spend counts: a key
 * hash, or `memberAccount(user_id)` for everything a member's keys spent.
 */
export interface Budget {
  account: string;
  limitUsd: number;
  reset: LimitReset | null;
  /** The error for a call this budget cannot cover (a 403 naming the guardrail). */
  exhausted(details: { remainingUsd: number; estimateUsd: number }): GatewayError;
}

/** Spend added to one account's counter in one window ('lifetime', 'day:…', 'week:…', 'month:…'). */
export interface SpendDelta {
  /** The generation this spend belongs to: a delta is applied only when its generation row is new. */
  generationId: string;
  /** A key hash, or `member:<user_id>`. */
  account: string;
  window: string;
  amountUsd: number;
  byokUsd: number;
}

export interface WindowSpend {
  amountUsd: number;
  byokUsd: number;
}

/** One account's window, e.g. a key hash and 'day:2026-11-21'. */
export interface LeaseSlot {
  account: string;
  window: string;
}

/** A replica asks for (more of) a budget: see docs/metering.md, "Several replicas". */
export interface LeaseRequest extends LeaseSlot {
  /** The replica's id for this process lifetime. */
  holder: string;
  limitUsd: number;
  /** The replica's whole lease must reach at least this, or the grant is refused. */
  needUsd: number;
  /** It may reach up to this (need plus a share for the calls that follow). */
  wantUsd: number;
  /** ISO-8601: leases of other replicas that expired before this count for nobody. */
  now: string;
  expiresAt: string;
}

export interface LeaseGrant {
  /** The replica's whole lease after the grant (between need and want); null: refused. */
  leaseUsd: number | null;
  /** limit − stored spend − live leases of other replicas, as seen by the grant. */
  roomUsd: number;
}

export interface LeaseState extends LeaseSlot {
  leaseUsd: number;
}

/** Persistence of generations and per-key spend counters (src/store/repositories/ledger.ts). */
export interface LedgerRepository {
  /**
   * In one transaction that locks the slot's spend counter row (so grants of one slot never
   * interleave): room = limit − stored spend − live leases of other holders; if room ≥ need the
   * holder's lease becomes min(room, want) with the new expiry, else nothing changes.
   */
  grantLease(request: LeaseRequest): Promise<LeaseGrant>;
  /**
   * Writes the holder's current leases (they only shrink between grants, as spend is stored) and
   * extends their expiry; returns the slots whose row is gone (expired and reclaimed).
   * Also deletes rows of any holder that expired before `purgeBefore`.
   */
  renewLeases(
    holder: string,
    leases: readonly LeaseState[],
    expiresAt: string,
    purgeBefore: string,
  ): Promise<LeaseSlot[]>;
  /** Gives leases back (idle, or shutting down). */
  releaseLeases(holder: string, slots: readonly LeaseSlot[]): Promise<void>;
  /**
   * Writes in ONE transaction: inserts the generations (an id already stored is skipped, so a
   * batch retried after an ambiguous commit is not applied twice) and adds the deltas of the
   * newly inserted generations to the `spend_counters`.
   */
  writeBatch(generations: readonly GenerationRecord[], spendDeltas: readonly SpendDelta[]): Promise<void>;
  /** Stored spend of one account per window; windows without a row are absent. */
  spendFor(account: string, windows: readonly string[]): Promise<Map<string, WindowSpend>>;
  /** Stored spend of many accounts: account → window → spend; absent rows are absent. */
  usageFor(accounts: readonly string[], windows: readonly string[]): Promise<Map<string, Map<string, WindowSpend>>>;
  findGeneration(id: string): Promise<GenerationRecord | null>;
}

export interface Meter {
  /**
   * Reserves an estimated cost before the upstream call. Throws `errors.paymentRequired` (402)
   * when the key's `limit` in its `limit_reset` window cannot cover committed spend + in-flight
   * reservations + this estimate, and the budget's own error (403) when one of `budgets` cannot.
   * Keys without a limit and no budgets always pass.
   */
  reserve(key: KeyRecord, estimateUsd: number, budgets?: readonly Budget[]): Promise<Reservation>;
  /**
   * Releases the reservation, adds the real cost to the key's spend at once (in memory) and
   * queues the generation and its spend for a batched write. Never throws.
   */
  settle(reservation: Reservation, generation: GenerationRecord): void;
  /** Releases without spend (the call failed before any cost). */
  release(reservation: Reservation): void;
  /** Real usage for GET /keys and /key, including settled but not yet flushed spend. */
  usageReader: KeyUsageReader;
  /** The key's own generation (another key's is null); looks in the unflushed queue too. */
  getGeneration(id: string, keyHash: string): Promise<GenerationRecord | null>;
  /**
   * The database was restored: budget leases (shares of limits granted against the old spend
   * counters) are dropped, and the next call of each account asks the restored counters for a new
   * one. Calls in flight and settled-but-unwritten spend are kept: they happened, and are written
   * into the restored database.
   */
  forgetLeases(): void;
  /** Generations waiting to be written (for the queue-depth gauge). */
  queueDepth(): number;
  /** Writes everything queued; rejects when a batch cannot be written (rows stay queued). */
  flush(): Promise<void>;
  /** Stops the timer and flushes; never rejects (a failure is logged with the rows it loses). */
  close(): Promise<void>;
}

export interface MeterOptions {
  ledger: LedgerRepository;
  clock: Clock;
  /** Timer period of the background flush (default 250 ms). */
  flushIntervalMs?: number;
  /** Queue length that triggers a flush at once; also the rows per transaction (default 200). */
  maxBatch?: number;
  /** This replica's id on budget leases (default: host, pid and random, new per process). */
  holder?: string;
  /** How long a budget lease lives without renewal (default 30 s); renewed while in use. */
  leaseTtlMs?: number;
  /** An unused lease is given back after this long (default 5 s). */
  leaseIdleMs?: number;
  /** Queue length above which every failed flush is logged as an alarm (default 100 000). */
  queueAlarmAt?: number;
  /** Never given prompt text or tokens. */
  log?: (msg: string, err?: unknown) => void;
  /** Called when a batch write fails (e.g. for a failure counter). */
  onFlushError?: (err: unknown) => void;
  /**
   * Where each settled generation is appended, synchronously, before `settle` returns (so before
   * the answer's last byte), and released once its batch committed (docs/metering.md, "The
   * ledger journal"). Absent: a crash loses what was settled but not yet written.
   */
  journal?: LedgerJournal;
}

/** Which journal segment holds a record; handed back to `committed` after its batch. */
export type JournalMark = number;

/** A local append-only record of settled generations, replayed at start (src/store/ledger-journal). */
export interface LedgerJournal {
  /** Writes the record (one write(2), no fsync) and returns its segment; throws when it cannot. */
  append(generation: GenerationRecord, settledAtMs: number): JournalMark;
  /** These records are committed to the store: a segment whose records all are is removed. */
  committed(marks: readonly JournalMark[]): void;
  /** Flushes appended records to the disk in the background (fdatasync), once per flush tick. */
  sync(): void;
  /** Closes the file; `clean`: everything was committed, so the segments are removed. */
  close(clean: boolean): void;
}
