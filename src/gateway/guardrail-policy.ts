import type { Catalog } from '../catalog/index.js';
import type { Clock } from '../domain/common/clock.js';
import type { GoverningGuardrail } from '../domain/guardrails/service.js';
import type { GuardrailRecord } from '../domain/guardrails/types.js';
import type { KeyRecord } from '../domain/keys/types.js';
import { compileFilterSet, type CompiledFilterSet } from '../filters/index.js';
import { combineGuardrails } from './combine-guardrails.js';
import type { PolicyResolver, RequestPolicy } from './policy.js';

export interface GuardrailSource {
  governing(key: KeyRecord): Promise<GoverningGuardrail[]>;
}

interface Entry {
  policy: RequestPolicy;
  loadedAtMs: number;
}

const MAX_COMPILED = 2_000;

/**
 * The request policy of a key from its guardrails, cached per (key, creator, workspace).
 * Every guardrail or assignment write in this process calls `invalidate()` before its response
 * goes out, so the very next request sees it; writes made elsewhere (another replica) are seen
 * after at most `revalidateAfterMs`, or at once when a change feed calls `invalidate()`.
 * Filter sets are compiled once per guardrail version (id + updated_at) and kept until the next
 * write, never per request.
 */
export class GuardrailPolicyResolver implements PolicyResolver {
  private readonly entries = new Map<string, Entry>();
  private readonly loads = new Map<string, Promise<RequestPolicy>>();
  private readonly compiled = new Map<string, CompiledFilterSet | null>();
  private generation = 0;

  constructor(
    private readonly deps: {
      guardrails: GuardrailSource;
      catalog: Catalog;
      clock: Clock;
      revalidateAfterMs: number;
    },
  ) {}

  /** Forgets every cached policy; the next request of each key reloads it. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.loads.clear();
    // updated_at has millisecond resolution: two writes within one millisecond share a version.
    this.compiled.clear();
  }

  resolve(key: KeyRecord): Promise<RequestPolicy> {
    const slot = `${key.hash}\n${key.creatorUserId}\n${key.workspaceId}`;
    const nowMs = this.deps.clock.now().getTime();
    const entry = this.entries.get(slot);
    if (entry !== undefined && nowMs - entry.loadedAtMs < this.deps.revalidateAfterMs) return Promise.resolve(entry.policy);
    let load = this.loads.get(slot);
    if (load === undefined) {
      const generation = this.generation;
      load = this.load(key).then(
        (policy) => {
          // A load that overlapped an invalidation may hold the old state: use it once, cache it never.
          if (generation === this.generation) {
            this.entries.set(slot, { policy, loadedAtMs: nowMs });
            this.loads.delete(slot);
          }
          return policy;
        },
        (error: unknown) => {
          if (this.loads.get(slot) === load) this.loads.delete(slot);
          throw error;
        },
      );
      this.loads.set(slot, load);
    }
    return load;
  }

  private async load(key: KeyRecord): Promise<RequestPolicy> {
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
