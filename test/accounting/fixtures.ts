// Builders and fakes shared by the accounting suites.
import type {
  GenerationRecord,
  LeaseGrant,
  LeaseRequest,
  LeaseSlot,
  LeaseState,
  LedgerRepository,
  SpendDelta,
  WindowSpend,
} from '../../src/domain/accounting/types.js';
import type { KeyRecord } from '../../src/domain/keys/types.js';
import { keyRecord } from '../../src/domain/keys/key-fixture.js';

export function apiKey(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return keyRecord('', {
    hash: 'a'.repeat(64),
    tokenDigest: 'd'.repeat(64),
    name: 'test',
    workspaceId: '00000000-0000-4000-8000-000000000001',
    creatorUserId: 'user_a',
    ...overrides,
  });
}

let seq = 0;
export function generation(overrides: Partial<GenerationRecord> = {}): GenerationRecord {
  seq += 1;
  return {
    id: `gen-test-${process.pid}-${seq}`,
    requestId: `req_${seq}`,
    keyHash: 'a'.repeat(64),
    workspaceId: '00000000-0000-4000-8000-000000000001',
    creatorUserId: 'user_a',
    model: 'openai/gpt-4o-mini',
    providerId: 'openai',
    upstreamModel: 'gpt-4o-mini',
    upstreamId: 'chatcmpl-1',
    apiType: 'completions',
    streamed: false,
    cancelled: false,
    finishReason: 'stop',
    nativeFinishReason: 'stop',
    promptTokens: 10,
    completionTokens: 5,
    reasoningTokens: 0,
    cachedTokens: 0,
    usageEstimated: false,
    promptCostUsd: 0.006,
    completionCostUsd: 0.004,
    costUsd: 0.01,
    latencyMs: 120,
    generationTimeMs: 450,
    presetId: null,
    presetVersion: null,
    flags: [],
    attempts: [{ provider: 'openai', model: 'gpt-4o-mini', status: 200 }],
    createdAt: '2026-01-01T00:00:00.000Z',
    userAgent: 'claude-cli/2.1.0 (external, cli)',
    sessionId: 'sess-1',
    origin: null,
    ...overrides,
  };
}

/** In-memory LedgerRepository with the real one's semantics, plus failure injection and call counts. */
export class MemoryLedger implements LedgerRepository {
  readonly generations = new Map<string, GenerationRecord>();
  readonly spend = new Map<string, WindowSpend>();
  /** Budget leases by `account\nwindow\nholder`. */
  readonly leases = new Map<string, { amountUsd: number; expiresAt: string }>();
  writes = 0;
  reads = 0;
  grants = 0;
  failNext = 0;
  /** Grants that fail (the database is down for budget checks). */
  failGrants = 0;
  /** When set, writeBatch waits for it (to hold a batch "in flight"). */
  gate: Promise<void> | null = null;

  async writeBatch(generations: readonly GenerationRecord[], deltas: readonly SpendDelta[]): Promise<void> {
    this.writes += 1;
    if (this.gate !== null) await this.gate;
    if (this.failNext > 0) {
      this.failNext -= 1;
      throw new Error('database is down');
    }
    const inserted = new Set<string>();
    for (const g of generations) {
      if (!this.generations.has(g.id)) {
        this.generations.set(g.id, structuredClone(g));
        inserted.add(g.id);
      }
    }
    for (const d of deltas) {
      if (!inserted.has(d.generationId)) continue;
      const slot = `${d.account}\n${d.window}`;
      const s = this.spend.get(slot) ?? { amountUsd: 0, byokUsd: 0 };
      this.spend.set(slot, { amountUsd: s.amountUsd + d.amountUsd, byokUsd: s.byokUsd + d.byokUsd });
    }
  }

  async spendFor(keyHash: string, windows: readonly string[]): Promise<Map<string, WindowSpend>> {
    this.reads += 1;
    await Promise.resolve();
    const out = new Map<string, WindowSpend>();
    for (const w of windows) {
      const s = this.spend.get(`${keyHash}\n${w}`);
      if (s !== undefined) out.set(w, { ...s });
    }
    return out;
  }

  async usageFor(
    hashes: readonly string[],
    windows: readonly string[],
  ): Promise<Map<string, Map<string, WindowSpend>>> {
    const out = new Map<string, Map<string, WindowSpend>>();
    for (const h of hashes) {
      const m = await this.spendFor(h, windows);
      if (m.size > 0) out.set(h, m);
    }
    return out;
  }

  async findGeneration(id: string): Promise<GenerationRecord | null> {
    await Promise.resolve();
    const g = this.generations.get(id);
    return g === undefined ? null : structuredClone(g);
  }

  async grantLease(req: LeaseRequest): Promise<LeaseGrant> {
    this.grants += 1;
    await Promise.resolve();
    if (this.failGrants > 0) {
      this.failGrants -= 1;
      throw new Error('database is down');
    }
    const prefix = `${req.account}\n${req.window}\n`;
    let leased = 0;
    for (const [slot, lease] of this.leases) {
      if (!slot.startsWith(prefix)) continue;
      if (lease.expiresAt <= req.now) this.leases.delete(slot);
      else if (slot !== prefix + req.holder) leased += lease.amountUsd;
    }
    const roomUsd = req.limitUsd - this.stored(req.account, req.window) - leased;
    if (roomUsd + 1e-9 < req.needUsd) return { leaseUsd: null, roomUsd };
    const leaseUsd = Math.max(req.needUsd, Math.min(roomUsd, req.wantUsd));
    this.leases.set(prefix + req.holder, { amountUsd: leaseUsd, expiresAt: req.expiresAt });
    return { leaseUsd, roomUsd };
  }

  async renewLeases(
    holder: string,
    leases: readonly LeaseState[],
    expiresAt: string,
    purgeBefore: string,
  ): Promise<LeaseSlot[]> {
    await Promise.resolve();
    const missing: LeaseSlot[] = [];
    for (const l of leases) {
      const slot = `${l.account}\n${l.window}\n${holder}`;
      if (!this.leases.has(slot)) missing.push({ account: l.account, window: l.window });
      else this.leases.set(slot, { amountUsd: Math.max(0, l.leaseUsd), expiresAt });
    }
    for (const [slot, lease] of this.leases) if (lease.expiresAt < purgeBefore) this.leases.delete(slot);
    return missing;
  }

  async releaseLeases(holder: string, slots: readonly LeaseSlot[]): Promise<void> {
    await Promise.resolve();
    for (const s of slots) this.leases.delete(`${s.account}\n${s.window}\n${holder}`);
  }

  stored(keyHash: string, window: string): number {
    return this.spend.get(`${keyHash}\n${window}`)?.amountUsd ?? 0;
  }
}

/** |a − b| < 1e-9. */
export function near(a: number, b: number): boolean {
  return Math.abs(a - b) < 1e-9;
}
