// Builders and fakes shared by the accounting suites.
import type { Clock } from '../../src/domain/common/clock.js';
import type { GenerationRecord, LedgerRepository, SpendDelta, WindowSpend } from '../../src/domain/accounting/types.js';
import type { KeyRecord } from '../../src/domain/keys/types.js';

export class ManualClock implements Clock {
  private ms: number;
  constructor(iso: string) {
    this.ms = Date.parse(iso);
  }
  now(): Date {
    return new Date(this.ms);
  }
  set(iso: string): void {
    this.ms = Date.parse(iso);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export function apiKey(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    hash: 'a'.repeat(64),
    tokenDigest: 'd'.repeat(64),
    kind: 'api',
    name: 'test',
    label: 'sk-sy-v1-abc...def',
    workspaceId: '00000000-0000-4000-8000-000000000001',
    creatorUserId: 'user_a',
    disabled: false,
    limit: null,
    limitReset: null,
    includeByokInLimit: false,
    expiresAt: null,
    externalUser: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: null,
    ...overrides,
  };
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
    ...overrides,
  };
}

/** In-memory LedgerRepository with the real one's semantics, plus failure injection and call counts. */
export class MemoryLedger implements LedgerRepository {
  readonly generations = new Map<string, GenerationRecord>();
  readonly spend = new Map<string, WindowSpend>();
  writes = 0;
  reads = 0;
  failNext = 0;
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

  async usageFor(hashes: readonly string[], windows: readonly string[]): Promise<Map<string, Map<string, WindowSpend>>> {
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

  stored(keyHash: string, window: string): number {
    return this.spend.get(`${keyHash}\n${window}`)?.amountUsd ?? 0;
  }
}

/** |a − b| < 1e-9. */
export function near(a: number, b: number): boolean {
  return Math.abs(a - b) < 1e-9;
}
