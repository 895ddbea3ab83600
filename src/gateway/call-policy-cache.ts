import type { Catalog } from '../catalog/index.js';
import type { ChangeFeedState } from '../domain/common/changes.js';
import { nowMs, type Clock } from '../domain/common/clock.js';
import type { GoverningGuardrail } from '../domain/guardrails/service.js';
import type { GuardrailRecord } from '../domain/guardrails/types.js';
import type { KeyRecord } from '../domain/keys/types.js';
import { errors, isGatewayError } from '../errors/index.js';
import { compileFilterSet, type CompiledFilterSet } from '../filters/index.js';
import { combineGuardrails } from './combine-guardrails.js';
import type { CallPolicyResolver, CallPolicy } from './call-policy.js';

export interface GuardrailSource {
  governing(key: KeyRecord): Promise<GoverningGuardrail[]>;
}

interface Entry {
  policy: CallPolicy;
  loadedAtMs: number;
  /** The cache generation it was loaded in; one before the last markStale() is re-read. */
  generation: number;
}

const MAX_COMPILED = 2_000;

/** A key's cache slot: its policy depends on the key, its creator and its workspace. */
const slotText = (key: KeyRecord): string => `${key.hash}\n${key.creatorUserId}\n${key.workspaceId}`;

interface Slot {
  readonly hash: string;
  readonly creatorUserId: string;
  readonly workspaceId: string;
  readonly text: string;
}

/**
 * The slot of each key record, made once per record and the three fields it was made of: a
 * record whose fields changed since gets its slot made again.
 */
const slots = new WeakMap<KeyRecord, Slot>();

function slotOf(key: KeyRecord): string {
  const kept = slots.get(key);
  if (
    kept !== undefined &&
    kept.hash === key.hash &&
    kept.creatorUserId === key.creatorUserId &&
    kept.workspaceId === key.workspaceId
  )
    return kept.text;
  const text = slotText(key);
  slots.set(key, { hash: key.hash, creatorUserId: key.creatorUserId, workspaceId: key.workspaceId, text });
  return text;
}

/**
 * The request policy of a key from its guardrails, cached per (key, creator, workspace).
 * Every guardrail or assignment write, in this process or another replica, reaches `invalidate()`
 * through the change feed before its response goes out (here) or within the feed's bound
 * (elsewhere). While the feed is live a policy is trusted up to `maxAgeMs`; while it is down, for
 * `revalidateAfterMs`. "Anything may have changed" (the feed dropped or came back) reaches
 * `markStale()`: policies are re-read before use but kept, so that when the database cannot be
 * read a policy loaded within `graceMs` still applies; without one the call gets 503.
 * Filter sets are compiled once per guardrail version (id + updated_at) and kept until the next
 * write, never per request.
 */
export class CallPolicyCache implements CallPolicyResolver {
  private readonly entries = new Map<string, Entry>();
  private readonly loads = new Map<string, Promise<CallPolicy>>();
  private readonly compiled = new Map<string, CompiledFilterSet | null>();
  private generation = 0;
  private staleGeneration = 0;

  constructor(
    private readonly deps: {
      guardrails: GuardrailSource;
      catalog: Catalog;
      clock: Clock;
      revalidateAfterMs: number;
      /** The change feed's state; without one, policies are re-read after `revalidateAfterMs`. */
      changes?: { state(): ChangeFeedState };
      /** With a live feed, a policy is still re-read after this long (default 5 min). */
      maxAgeMs?: number;
      /** Store unreachable: a policy loaded within this long still applies (default 60 s). */
      graceMs?: number;
    },
  ) {}

  /** Anything may have changed: every policy is re-read before use, but kept as a fallback. */
  markStale(): void {
    this.generation += 1;
    this.loads.clear();
    this.staleGeneration = this.generation;
  }

  /** Forgets every cached policy; the next request of each key reloads it. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.loads.clear();
    // updated_at has millisecond resolution: two writes within one millisecond share a version.
    this.compiled.clear();
  }

  cached(key: KeyRecord): CallPolicy | null {
    const entry = this.entries.get(slotOf(key));
    return entry !== undefined && this.trusted(entry, nowMs(this.deps.clock)) ? entry.policy : null;
  }

  resolve(key: KeyRecord): Promise<CallPolicy> {
    const slot = slotOf(key);
    const now = nowMs(this.deps.clock);
    const entry = this.entries.get(slot);
    if (entry !== undefined && this.trusted(entry, now)) return Promise.resolve(entry.policy);
    let load = this.loads.get(slot);
    if (load === undefined) {
      const generation = this.generation;
      load = this.load(key).then(
        (policy) => {
          // A load that overlapped an invalidation may hold the old state: use it once, cache it never.
          if (generation === this.generation) {
            this.entries.set(slot, { policy, loadedAtMs: now, generation });
            this.loads.delete(slot);
          }
          return policy;
        },
        (error: unknown) => {
          if (this.loads.get(slot) === load) this.loads.delete(slot);
          if (isGatewayError(error)) throw error;
          // The store could not be read: the last policy loaded within the grace still applies.
          const kept = this.entries.get(slot);
          if (kept !== undefined && now - kept.loadedAtMs <= (this.deps.graceMs ?? 60_000)) return kept.policy;
          throw errors.storeUnavailable('Guardrails cannot be read right now; retry shortly');
        },
      );
      this.loads.set(slot, load);
    }
    return load;
  }

  private trusted(entry: Entry, now: number): boolean {
    if (entry.generation < this.staleGeneration) return false;
    const age = now - entry.loadedAtMs;
    if (this.deps.changes?.state() === 'live') return age < (this.deps.maxAgeMs ?? 300_000);
    return age < this.deps.revalidateAfterMs;
  }

  private async load(key: KeyRecord): Promise<CallPolicy> {
    const governing = await this.deps.guardrails.governing(key);
    return combineGuardrails({ key, governing, catalog: this.deps.catalog, filtersOf: (g) => this.filtersOf(g) });
  }

  private filtersOf(guardrail: GuardrailRecord): CompiledFilterSet | null {
    const version = `${guardrail.id}\n${guardrail.updatedAt ?? guardrail.createdAt}`;
    const cached = this.compiled.get(version);
    if (cached !== undefined) return cached;
    const builtins = guardrail.contentFilterBuiltins ?? [];
    const custom = guardrail.contentFilters ?? [];
    // Patterns were checked with RE2 when the guardrail was written; compiling cannot fail here.
    const set = builtins.length + custom.length === 0 ? null : compileFilterSet({ builtins, custom });
    if (this.compiled.size >= MAX_COMPILED) this.compiled.clear();
    this.compiled.set(version, set);
    return set;
  }
}
