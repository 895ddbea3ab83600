import type { GatewayError } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import { randomHex } from '../common/ids.js';
import type { KeyRecord } from '../keys/types.js';
import type { ApiType, GenerationRecord, Meter, Refusal, RefusalDetail, Reservation } from './types.js';

/** A model call refused before (or instead of) an upstream call, as the HTTP edge saw it. */
export interface RefusedCall {
  key: KeyRecord;
  /** The model asked for ('' when the body could not be read). */
  model: string;
  apiType: ApiType;
  /** The route's path, e.g. `/api/v1/chat/completions`. */
  path: string;
  requestId: string;
  streamed: boolean;
  /** Time from the request's arrival to the refusal, ms. */
  elapsedMs: number;
  error: GatewayError;
  /** Who called, as on an accepted call's generation. */
  caller?: Pick<GenerationRecord, 'userAgent' | 'sessionId' | 'origin'>;
}

export interface RefusalRecorderOptions {
  meter: Pick<Meter, 'settle'>;
  clock: Clock;
  /**
   * Refusals recorded as a row each, per key and UTC minute; the rest of the minute's are summed
   * into one row per status, code and model (0: every refusal is summed).
   */
  perKeyPerMinute: number;
}

/** Error metadata a refusal keeps: which rule, guardrail, budget or field. Anything else is dropped. */
const KEPT_DETAILS = [
  'rule',
  'filter',
  'guardrail_id',
  'guardrail_ids',
  'assignee',
  'limit',
  'limit_remaining',
  'limit_reset',
  'reset_interval',
  'reset_at',
  'estimated_cost',
  'field',
  'limit_bytes',
  'retryable',
] as const;

const MAX_TEXT = 300;
/** Summed rows one key holds per minute; beyond, further models share one row. */
const MAX_BUCKETS_PER_KEY = 20;
const SEVERAL_MODELS = '(several models)';
const NO_RESERVATION: Reservation = Object.freeze({ accounts: [], amountUsd: 0 });

/**
 * Text from a refused request (the model asked for, an error's message and metadata) as it may be
 * stored: bounded, and without NUL, which PostgreSQL text cannot hold (one such row would fail
 * the whole ledger batch it is written in).
 */
const clip = (raw: string): string => {
  const text = raw.replaceAll('\u0000', '\uFFFD');
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
};

function detailOf(value: unknown): RefusalDetail | undefined {
  if (typeof value === 'string') return clip(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map(clip);
  return undefined;
}

/** The refusal's reason from its error: the gateway's message and the kept metadata, never the request body. */
export function refusalOf(error: GatewayError, path: string, count = 1): Refusal {
  const details: Record<string, RefusalDetail> = { path };
  for (const name of KEPT_DETAILS) {
    const value = detailOf(error.metadata?.[name]);
    if (value !== undefined) details[name] = value;
  }
  return { status: error.status, code: error.code, message: clip(error.message), details, count };
}

interface Bucket {
  first: GenerationRecord;
  count: number;
}

interface KeyMinute {
  minute: number;
  recorded: number;
  buckets: Map<string, Bucket>;
}

/**
 * Turns refused model calls into generation records (docs/metering.md, "Refused calls"), bounded
 * per key: the first `perKeyPerMinute` refusals of a key in a UTC minute are a row each; the rest
 * of that minute are counted in memory and written, when the minute is over, as one row per
 * status, code and model whose `count` says how many it stands for. A flood of refusals therefore
 * adds at most `perKeyPerMinute` + 20 rows per key and minute, while every refusal is still counted
 * in the rollups. Rows go through the meter's batched ledger, like every generation.
 */
export class RefusalRecorder {
  private readonly minutes = new Map<string, KeyMinute>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: RefusalRecorderOptions) {
    this.timer = setInterval(() => this.writeFinishedMinutes(), 5000);
    this.timer.unref();
  }

  record(call: RefusedCall): void {
    const now = this.options.clock.now();
    const minute = Math.floor(now.getTime() / 60_000);
    let state = this.minutes.get(call.key.hash);
    if (state !== undefined && state.minute !== minute) {
      this.flush(state);
      state = undefined;
    }
    if (state === undefined) {
      state = { minute, recorded: 0, buckets: new Map() };
      this.minutes.set(call.key.hash, state);
    }
    const generation = this.generation(call, now);
    if (state.recorded < this.options.perKeyPerMinute) {
      state.recorded += 1;
      this.options.meter.settle(NO_RESERVATION, generation);
      return;
    }
    const status = call.error.status;
    let id = `${status}\u0000${call.error.code}\u0000${call.model}`;
    if (!state.buckets.has(id) && state.buckets.size >= MAX_BUCKETS_PER_KEY - 1)
      id = `${status}\u0000${call.error.code}\u0000${SEVERAL_MODELS}`;
    const bucket = state.buckets.get(id);
    if (bucket !== undefined) bucket.count += 1;
    else
      state.buckets.set(id, {
        first: id.endsWith(SEVERAL_MODELS) ? { ...generation, model: SEVERAL_MODELS } : generation,
        count: 1,
      });
  }

  /** Writes every summed row now (shutdown), whatever its minute. */
  close(): void {
    clearInterval(this.timer);
    for (const state of this.minutes.values()) this.flush(state);
    this.minutes.clear();
  }

  /** Summed rows of minutes that are over; keys idle since are forgotten (bounded memory). */
  writeFinishedMinutes(): void {
    const minute = Math.floor(this.options.clock.now().getTime() / 60_000);
    for (const [hash, state] of this.minutes) {
      if (state.minute >= minute) continue;
      this.flush(state);
      this.minutes.delete(hash);
    }
  }

  private flush(state: KeyMinute): void {
    for (const { first, count } of state.buckets.values()) {
      const refusal = first.refusal;
      if (refusal === null || refusal === undefined) continue;
      this.options.meter.settle(NO_RESERVATION, { ...first, refusal: { ...refusal, count } });
    }
    state.buckets.clear();
  }

  private generation(call: RefusedCall, now: Date): GenerationRecord {
    const { key } = call;
    return {
      id: `gen-${now.getTime()}-${randomHex(10)}`,
      requestId: call.requestId,
      keyHash: key.hash,
      workspaceId: key.workspaceId,
      creatorUserId: key.creatorUserId,
      model: clip(call.model),
      providerId: '',
      upstreamModel: '',
      upstreamId: null,
      apiType: call.apiType,
      streamed: call.streamed,
      cancelled: false,
      finishReason: 'error',
      nativeFinishReason: null,
      promptTokens: 0,
      completionTokens: 0,
      reasoningTokens: 0,
      cachedTokens: 0,
      usageEstimated: false,
      promptCostUsd: 0,
      completionCostUsd: 0,
      costUsd: 0,
      latencyMs: 0,
      generationTimeMs: Math.max(0, Math.round(call.elapsedMs)),
      presetId: null,
      presetVersion: null,
      flags: [],
      attempts: [],
      createdAt: now.toISOString(),
      refusal: refusalOf(call.error, call.path),
      userAgent: call.caller?.userAgent ?? null,
      sessionId: call.caller?.sessionId ?? null,
      origin: call.caller?.origin ?? null,
    };
  }
}
