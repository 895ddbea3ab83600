import type { Catalog } from '../../catalog/index.js';
import { errors } from '../../errors/index.js';
import { memberAccount } from '../accounting/accounts.js';
import type { GenerationRecord, LedgerRepository } from '../accounting/types.js';
import { windowsAt } from '../accounting/windows.js';
import type { Clock } from '../common/clock.js';
import type { LimitReset } from '../keys/types.js';
import { spentInWindow, type KeyUsageReader } from '../keys/usage.js';
import type { EndpointHealthSnapshot } from '../routing/health.js';
import { defaultGuardrailId } from '../workspaces/service.js';
import type {
  ActivityRow,
  AnalyticsRepository,
  BudgetAssignee,
  GenerationCursor,
  GenerationFilter,
  LimitedKey,
  UsageGroupBy,
} from './types.js';
import { decodeCursor, encodeCursor } from './cursor.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
export const OTHER_GROUP = '__other__';

const hourKey = (ms: number): string => new Date(ms).toISOString().slice(0, 13);
const dayKey = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export interface AnalyticsServiceOptions {
  analytics: AnalyticsRepository;
  ledger: Pick<LedgerRepository, 'usageFor'>;
  usage: KeyUsageReader;
  catalog: Pick<Catalog, 'models'>;
  health: { snapshot(): EndpointHealthSnapshot[] };
  clock: Clock;
}

export interface UsageSeries {
  group: string;
  label: string;
  spendUsd: number[];
  requests: number[];
  errors: number[];
}

export interface UsageReport {
  bucket: 'hour' | 'day';
  /** Bucket starts, ISO-8601. */
  buckets: string[];
  series: UsageSeries[];
  /** `refused`: how many of the errors were refused calls. */
  totals: { spendUsd: number; requests: number; errors: number; refused: number };
}

export interface LimitReport {
  keys: (LimitedKey & { usageUsd: number })[];
  budgets: (BudgetAssignee & { usageUsd: number })[];
}

export interface EndpointReport {
  endpointId: string;
  providerId: string;
  model: string;
  upstreamModel: string;
  circuit: EndpointHealthSnapshot['state'];
  recentFailures: number;
  latencyMs: number | null;
  throughput: number | null;
  requests: number;
  errors: number;
}

export interface GenerationPage {
  rows: GenerationRecord[];
  keyNames: Map<string, string>;
  nextCursor: string | null;
}

/** The console's and `/activity`'s reads over the ledger and its hourly and daily rollups. */
export class AnalyticsService {
  constructor(private readonly deps: AnalyticsServiceOptions) {}

  /** Rows per UTC day × model × endpoint over the last 30 completed days (or one of them). */
  async activity(query: { date?: string; keyHash?: string; workspaceId?: string }): Promise<ActivityRow[]> {
    const today = Math.floor(this.deps.clock.now().getTime() / DAY_MS) * DAY_MS;
    const first = today - 30 * DAY_MS;
    let fromDay = dayKey(first);
    let toDay = dayKey(today);
    if (query.date !== undefined) {
      const day = Date.parse(`${query.date}T00:00:00.000Z`);
      if (!Number.isFinite(day) || dayKey(day) !== query.date || day < first || day >= today)
        throw errors.invalidRequest('date: must be one of the last 30 completed UTC days (YYYY-MM-DD)', {
          field: 'date',
        });
      fromDay = query.date;
      toDay = dayKey(day + DAY_MS);
    }
    return this.deps.analytics.activity({ fromDay, toDay, keyHash: query.keyHash, workspaceId: query.workspaceId });
  }

  async generations(filter: GenerationFilter, cursor: string | undefined, limit: number): Promise<GenerationPage> {
    const after: GenerationCursor | null = cursor === undefined ? null : decodeCursor(cursor);
    const rows = await this.deps.analytics.listGenerations(filter, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > limit && last !== undefined ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null;
    const keyNames = await this.deps.analytics.keyNames([...new Set(page.map((g) => g.keyHash))]);
    return { rows: page, keyNames, nextCursor };
  }

  async usage(range: '24h' | '30d', groupBy: UsageGroupBy, top: number): Promise<UsageReport> {
    const now = this.deps.clock.now().getTime();
    const hourly = range === '24h';
    const step = hourly ? HOUR_MS : DAY_MS;
    const last = Math.floor(now / step) * step;
    const count = hourly ? 24 : 30;
    const starts = Array.from({ length: count }, (_, i) => last - (count - 1 - i) * step);
    const keyOf = hourly ? hourKey : dayKey;
    const index = new Map(starts.map((s, i) => [keyOf(s), i]));
    const points = await this.deps.analytics.usage({
      bucket: hourly ? 'hour' : 'day',
      from: keyOf(starts[0] ?? last),
      to: keyOf(last + step),
      groupBy,
    });
    const byGroup = new Map<string, UsageSeries>();
    const seriesOf = (group: string): UsageSeries => {
      let s = byGroup.get(group);
      if (s === undefined) {
        s = { group, label: group, spendUsd: zeros(count), requests: zeros(count), errors: zeros(count) };
        byGroup.set(group, s);
      }
      return s;
    };
    const totals = { spendUsd: 0, requests: 0, errors: 0, refused: 0 };
    for (const p of points) {
      const i = index.get(p.bucket);
      if (i === undefined) continue;
      const s = seriesOf(p.group);
      add(s, i, p);
      totals.spendUsd += p.spendUsd;
      totals.requests += p.requests;
      totals.errors += p.errors;
      totals.refused += p.refused;
    }
    const ranked = [...byGroup.values()].sort(
      (a, b) => sum(b.spendUsd) - sum(a.spendUsd) || sum(b.requests) - sum(a.requests),
    );
    const series = ranked.slice(0, top);
    const rest = ranked.slice(top);
    if (rest.length > 0) {
      const other: UsageSeries = {
        group: OTHER_GROUP,
        label: 'Other',
        spendUsd: zeros(count),
        requests: zeros(count),
        errors: zeros(count),
      };
      for (const s of rest)
        for (let i = 0; i < count; i++)
          add(other, i, { spendUsd: s.spendUsd[i] ?? 0, requests: s.requests[i] ?? 0, errors: s.errors[i] ?? 0 });
      series.push(other);
    }
    await this.label(series, groupBy);
    return { bucket: hourly ? 'hour' : 'day', buckets: starts.map((s) => new Date(s).toISOString()), series, totals };
  }

  /**
   * Keys with a limit and guardrail budgets per assignee, closest to their limit first. The two
   * lists are independent chains of queries, run concurrently (in parallel on PostgreSQL's pool).
   */
  async limits(top: number): Promise<LimitReport> {
    const now = this.deps.clock.now();
    const [keyRows, budgetRows] = await Promise.all([this.keyLimits(now), this.budgetLimits(now)]);
    const fraction = (r: { usageUsd: number; limitUsd: number }) =>
      r.limitUsd > 0 ? r.usageUsd / r.limitUsd : r.usageUsd > 0 ? Infinity : 1;
    return {
      keys: keyRows.sort((a, b) => fraction(b) - fraction(a)).slice(0, top),
      budgets: budgetRows.sort((a, b) => fraction(b) - fraction(a)).slice(0, top),
    };
  }

  private async keyLimits(now: Date): Promise<LimitReport['keys']> {
    const keys = await this.deps.analytics.limitedKeys();
    const usage = await this.deps.usage.read(
      keys.map((k) => k.hash),
      now,
    );
    return keys.map((k) => {
      const u = usage.get(k.hash);
      return { ...k, usageUsd: u === undefined ? 0 : spentInWindow(u, k.limitReset, k.includeByok) };
    });
  }

  private async budgetLimits(now: Date): Promise<LimitReport['budgets']> {
    const guardrails = await this.deps.analytics.limitedGuardrails();
    const defaults = new Map(
      guardrails.filter((g) => g.id === defaultGuardrailId(g.workspaceId)).map((g) => [g.id, g.workspaceId]),
    );
    const assignees = await this.deps.analytics.budgetAssignees(defaults, 5000);
    const accountOf = (a: BudgetAssignee) => (a.assigneeType === 'key' ? a.assigneeId : memberAccount(a.assigneeId));
    const windows = windowsAt(now);
    const windowOf = (reset: LimitReset | null): string =>
      reset === 'daily'
        ? windows.day
        : reset === 'weekly'
          ? windows.week
          : reset === 'monthly'
            ? windows.month
            : windows.lifetime;
    const spend = await this.deps.ledger.usageFor(
      [...new Set(assignees.map(accountOf))],
      [windows.lifetime, windows.day, windows.week, windows.month],
    );
    return assignees.map((a) => ({
      ...a,
      usageUsd: spend.get(accountOf(a))?.get(windowOf(a.resetInterval))?.amountUsd ?? 0,
    }));
  }

  /** Every catalog endpoint with this replica's circuit state and all replicas' recent calls. */
  async endpoints(): Promise<EndpointReport[]> {
    const now = this.deps.clock.now().getTime();
    // The current and the previous UTC hour: the rollups' granularity.
    const stats = await this.deps.analytics.endpointStats(hourKey(now - HOUR_MS));
    const health = new Map(this.deps.health.snapshot().map((h) => [h.key, h]));
    const out: EndpointReport[] = [];
    for (const model of this.deps.catalog.models) {
      for (const e of model.endpoints) {
        const h = health.get(e.key);
        const calls = stats.filter(
          (s) => s.model === model.slug && s.providerId === e.providerId && s.upstreamModel === e.upstreamModel,
        );
        out.push({
          endpointId: e.key,
          providerId: e.providerId,
          model: model.slug,
          upstreamModel: e.upstreamModel,
          circuit: h?.state ?? 'closed',
          recentFailures: h?.recentFailures ?? 0,
          latencyMs: h?.latencyMs ?? null,
          throughput: h?.throughput ?? null,
          requests: calls.reduce((n, s) => n + s.requests, 0),
          errors: calls.reduce((n, s) => n + s.errors, 0),
        });
      }
    }
    return out;
  }

  private async label(series: UsageSeries[], groupBy: UsageGroupBy): Promise<void> {
    const ids = series.map((s) => s.group).filter((g) => g !== OTHER_GROUP);
    const names =
      groupBy === 'key'
        ? await this.deps.analytics.keyNames(ids)
        : groupBy === 'workspace'
          ? await this.deps.analytics.workspaceNames(ids)
          : null;
    if (names === null) return;
    for (const s of series) s.label = names.get(s.group) ?? s.label;
  }
}

const zeros = (n: number): number[] => new Array<number>(n).fill(0);
const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
function add(s: UsageSeries, i: number, p: { spendUsd: number; requests: number; errors: number }): void {
  s.spendUsd[i] = (s.spendUsd[i] ?? 0) + p.spendUsd;
  s.requests[i] = (s.requests[i] ?? 0) + p.requests;
  s.errors[i] = (s.errors[i] ?? 0) + p.errors;
}
