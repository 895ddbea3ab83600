import { randomBytes } from 'node:crypto';
import { CatalogHolder, CatalogReloader, type Catalog, type Env } from './catalog/index.js';
import type { Clock } from './domain/common/clock.js';
import { createMeter } from './domain/accounting/meter.js';
import { RefusalRecorder } from './domain/accounting/refusal-recorder.js';
import { AuditLog } from './domain/audit/service.js';
import type { Meter } from './domain/accounting/types.js';
import { GuardrailService } from './domain/guardrails/service.js';
import { createPresetService, type Presets } from './domain/presets/index.js';
import { KeyAuthenticator } from './domain/keys/authenticator.js';
import { KnownDigests } from './domain/keys/known-digests.js';
import { KeyService } from './domain/keys/service.js';
import type { KeyUsageReader } from './domain/keys/usage.js';
import { MemberService } from './domain/members/service.js';
import { EndpointHealth } from './domain/routing/index.js';
import { WorkspaceService } from './domain/workspaces/service.js';
import { RateBook } from './domain/accounting/rate-book.js';
import { Gateway } from './gateway/gateway.js';
import { prepareEndpoints } from './gateway/attempts.js';
import { CallPolicyCache } from './gateway/call-policy-cache.js';
import type { CallTracer } from './gateway/call-tracer.js';
import { createProviderRegistry, type ProviderRegistry } from './providers/index.js';
import type { Store } from './store/index.js';
import { Metrics } from './observability/metrics.js';
import { recordGeneration } from './observability/generation-metrics.js';
import { registerCoherenceMetrics } from './observability/coherence-metrics.js';
import type { ChangeFeed } from './domain/common/changes.js';
import { LocalChangeFeed } from './store/change-feed.js';
import type { GenerationRecord, LedgerJournal } from './domain/accounting/types.js';
import { ConsoleSessions } from './domain/console/sessions.js';
import { defaultWorkspaceIdOf } from './domain/console/person.js';
import { FailureThrottle } from './domain/common/failure-throttle.js';
import { AnalyticsService } from './domain/analytics/service.js';
import { RestoreWatcher } from './domain/common/restore-watcher.js';
import { ResponseStore } from './domain/responses/response-store.js';

export interface CallLogSink {
  write(generation: GenerationRecord): void;
}

/** Everything the HTTP layer and the CLI call, built once over one store. */
export interface Services {
  store: Store;
  /** Stored Responses (`store: true`), pruned in the background. */
  responses: ResponseStore;
  clock: Clock;
  /** The running catalog snapshot (read it once per request; a reload swaps it). */
  readonly catalog: Catalog;
  /** Holds the running catalog; `replace` swaps it (catalog reload). */
  catalogHolder: CatalogHolder;
  /** Re-reads the catalog file into the holder; null when the services were built without a file source. */
  catalogReloader: CatalogReloader | null;
  authenticator: KeyAuthenticator;
  /** Every stored token digest in memory; `start()` loads it (the server does, before listening). */
  knownDigests: KnownDigests;
  keys: KeyService;
  members: MemberService;
  workspaces: WorkspaceService;
  guardrails: GuardrailService;
  /** Presets and their versions; `presets.resolver` applies them to model calls. */
  presets: Presets;
  /** Each key's combined guardrail policy, cached; `invalidate()` after out-of-band changes. */
  policy: CallPolicyCache;
  usage: KeyUsageReader;
  meter: Meter;
  /** Refused model calls become generation records, bounded per key (docs/metering.md). */
  refusals: RefusalRecorder;
  providers: ProviderRegistry;
  gateway: Gateway;
  metrics: Metrics;
  /** The audit log of management writes (read side; writes record through `auditedWrite`). */
  auditLog: AuditLog;
  /** Cache coherence across replicas: publish after writes, subscribe caches (docs/architecture.md). */
  changeFeed: ChangeFeed;
  /** Where the one structured line per model call goes; the app points it at its logger. */
  callLog: CallLogSink;
  /** Per-endpoint circuit breakers and latency of this process. */
  health: EndpointHealth;
  /** Web console sign-in sessions and the per-address throttle of failed sign-ins. */
  consoleSessions: ConsoleSessions;
  signInThrottle: FailureThrottle;
  /** Reads for `/activity`, `/generations` and the console's overview. */
  analytics: AnalyticsService;
  /** Flushes the ledger, closes upstream pools and exports queued spans (the store is closed by its owner). */
  close(): Promise<void>;
}

export interface ServiceOptions {
  store: Store;
  clock: Clock;
  /** A fixed catalog, or a holder whose snapshot a reload swaps. */
  catalog: Catalog | CatalogHolder;
  /** Where a catalog reload reads from: SWITCHYARD_CONFIG (null: the built-in catalog) and the environment. */
  catalogFile?: { path: string | null; env: Env };
  keyCacheRevalidateMs: number;
  /** Key store unreachable: how long a verified key keeps its decision (default 60 s). */
  keyCacheGraceMs?: number;
  /** Started and closed by the caller; default: an in-process feed over the store's change marker. */
  changeFeed?: ChangeFeed;
  ledgerFlushMs?: number;
  /** The server's ledger journal (src/store/ledger-journal); the CLI settles no calls and has none. */
  ledgerJournal?: LedgerJournal;
  filtersFailOpen?: boolean;
  /** How often replicas exchange rate-limit counts (default 200 ms): bounds how far they can overshoot together. */
  rateSyncMs?: number;
  log?: (msg: string, err?: unknown) => void;
  /** Largest upstream JSON answer and single SSE event (defaults: the upstream client's). */
  upstreamLimits?: { maxBodyBytes: number; maxEventBytes: number };
  /** Console sessions: idle expiry and the failed sign-in throttle (defaults: 12 h; 10 per 15 min). */
  console?: { sessionIdleMs: number; signInMaxFailures: number; signInWindowMs: number };
  /** Spans of model calls (absent: tracing off); shut down, exporting what is queued, by `close`. */
  tracer?: CallTracer;
  /** Stored Responses: retention and the largest kept (defaults: 30 days, 8 MiB). */
  responses?: { retentionMs: number; maxBytes: number };
  /** Refusals recorded as a row each per key and minute; the rest are summed (default 60). */
  refusalsPerKeyPerMinute?: number;
}

export function createServices(options: ServiceOptions): Services {
  const { store, clock } = options;
  const catalogHolder = options.catalog instanceof CatalogHolder ? options.catalog : new CatalogHolder(options.catalog);
  // Consumers below get `catalog` as a getter and read it once per use: a call keeps the snapshot
  // it was prepared with, the next call sees a reloaded one.
  const changeFeed =
    options.changeFeed ?? new LocalChangeFeed({ externalChangeMarker: () => store.externalChangeMarker() });
  const metrics = new Metrics();
  const coherence = registerCoherenceMetrics(metrics.registry);
  changeFeed.observe(coherence.feed);
  const knownDigests = new KnownDigests({
    keys: store.keys,
    changes: changeFeed,
    log: options.log,
    // Replicas: a key created on another one is accepted here once its notification arrived.
    recheckMs: changeFeed.kind === 'postgres' ? 100 : 0,
  });
  coherence.trackDigests(() => knownDigests.stats());
  const authenticator = new KeyAuthenticator({
    keys: store.keys,
    clock,
    changes: changeFeed,
    revalidateAfterMs: options.keyCacheRevalidateMs,
    graceMs: options.keyCacheGraceMs ?? 60_000,
    observer: coherence.auth,
    digests: knownDigests,
  });
  changeFeed.subscribe('keys', (hash) => {
    if (hash === null) authenticator.invalidateAll();
    else authenticator.forget(hash);
    knownDigests.changed(hash);
  });
  const meter = createMeter({
    ledger: store.ledger,
    clock,
    flushIntervalMs: options.ledgerFlushMs,
    journal: options.ledgerJournal,
    log: options.log,
    onFlushError: () => metrics.recordLedgerFlushFailure(),
  });
  metrics.trackLedger(meter);
  const responses = new ResponseStore({
    repository: store.storedResponses,
    clock,
    retentionMs: options.responses?.retentionMs ?? 30 * 86_400_000,
    maxBytes: options.responses?.maxBytes ?? 8 * 1024 * 1024,
  });
  responses.start();
  const refusals = new RefusalRecorder({ meter, clock, perKeyPerMinute: options.refusalsPerKeyPerMinute ?? 60 });
  // After a restore the feed's other topics reload keys, policies and presets; the meter's budget
  // leases are the one thing derived from the old content that no topic covers.
  const restores = new RestoreWatcher({
    read: () => store.restoreMarker(),
    onRestore: () => {
      meter.forgetLeases();
      options.log?.('database restored from a backup: budget leases dropped; keys, policies and presets re-read');
    },
    log: options.log ?? (() => undefined),
  });
  // A feed that just went down (PostgreSQL) most likely lost the database too: the read waits for
  // the signal that it is back.
  changeFeed.subscribe('store', () => {
    if (changeFeed.state() === 'live') void restores.check();
  });
  const rates = new RateBook({
    store: store.rateCounts,
    holder: `replica-${process.pid}-${randomBytes(6).toString('hex')}`,
    clock,
    syncMs: options.rateSyncMs ?? 200,
    log: options.log ?? (() => undefined),
  });
  const callLog: CallLogSink = { write: () => undefined };
  const providers = createProviderRegistry({ upstream: options.upstreamLimits });
  const health = new EndpointHealth({ now: () => clock.now().getTime() });
  const guardrails = new GuardrailService({
    guardrails: store.guardrails,
    keys: store.keys,
    members: store.members,
    workspaces: store.workspaces,
    get catalog() {
      return catalogHolder.current();
    },
    clock,
    transaction: (fn) => store.withTransaction(fn),
    // Publishing reaches this process's subscribers at once (the policy cache below) and every other replica.
    changes: changeFeed,
  });
  const policy = new CallPolicyCache({
    guardrails,
    get catalog() {
      return catalogHolder.current();
    },
    clock,
    revalidateAfterMs: options.keyCacheRevalidateMs,
    changes: changeFeed,
    graceMs: options.keyCacheGraceMs,
  });
  changeFeed.subscribe('guardrails', (id) => (id === null ? policy.markStale() : policy.invalidate()));
  const presets = createPresetService({
    presets: store.presets,
    workspaces: store.workspaces,
    get catalog() {
      return catalogHolder.current();
    },
    clock,
    transaction: (fn) => store.withTransaction(fn),
    revalidateAfterMs: options.keyCacheRevalidateMs,
    changes: changeFeed,
    log: options.log,
  });
  // A reload: cached policies hold provider ids resolved against the old catalog; health state of
  // endpoints that are gone or now reach another upstream is dropped.
  catalogHolder.onChange((change) => {
    policy.invalidate();
    health.reconcile({ keep: change.endpointKeys, reset: change.changedEndpoints });
    prepareEndpoints(catalogHolder.current());
  });
  prepareEndpoints(catalogHolder.current());
  return {
    store,
    clock,
    get catalog() {
      return catalogHolder.current();
    },
    catalogHolder,
    catalogReloader:
      options.catalogFile === undefined
        ? null
        : new CatalogReloader({ holder: catalogHolder, path: options.catalogFile.path, env: options.catalogFile.env }),
    authenticator,
    knownDigests,
    keys: new KeyService({
      keys: store.keys,
      members: store.members,
      workspaces: store.workspaces,
      authenticator,
      clock,
      changes: changeFeed,
      transaction: (fn) => store.withTransaction(fn),
    }),
    members: new MemberService({ members: store.members, clock, transaction: (fn) => store.withTransaction(fn) }),
    workspaces: new WorkspaceService({
      workspaces: store.workspaces,
      members: store.members,
      keys: store.keys,
      clock,
      transaction: (fn) => store.withTransaction(fn),
    }),
    guardrails,
    policy,
    presets,
    usage: meter.usageReader,
    meter,
    refusals,
    providers,
    health,
    gateway: new Gateway({
      get catalog() {
        return catalogHolder.current();
      },
      providers,
      health,
      meter,
      presets: presets.resolver,
      policy,
      rates,
      filtersFailOpen: options.filtersFailOpen,
      clock,
      tracer: options.tracer,
      observe: (generation) => {
        recordGeneration(metrics, generation);
        callLog.write(generation);
      },
    }),
    metrics,
    auditLog: new AuditLog({ audit: store.audit }),
    changeFeed,
    callLog,
    consoleSessions: new ConsoleSessions({
      sessions: store.consoleSessions,
      keys: authenticator,
      members: store.members,
      people: {
        rolesOf: (userId) => store.workspaces.rolesOf(userId),
        defaultWorkspaceId: defaultWorkspaceIdOf(store.workspaces),
      },
      audit: store.audit,
      clock,
      idleMs: options.console?.sessionIdleMs ?? 12 * 3_600_000,
    }),
    signInThrottle: new FailureThrottle({
      now: () => clock.now().getTime(),
      maxFailures: options.console?.signInMaxFailures ?? 10,
      windowMs: options.console?.signInWindowMs ?? 15 * 60_000,
      maxAddresses: 10_000,
    }),
    analytics: new AnalyticsService({
      analytics: store.analytics,
      ledger: store.ledger,
      usage: meter.usageReader,
      get catalog() {
        return catalogHolder.current();
      },
      health,
      clock,
    }),
    responses,
    close: async () => {
      await responses.close();
      knownDigests.close();
      await rates.close();
      refusals.close();
      await meter.close();
      await providers.close();
      await options.tracer?.shutdown();
    },
  };
}
