import type { FastifyInstance } from 'fastify';
import { buildApp, type AppExtension } from './app.js';
import { bootstrap } from './bootstrap.js';
import type { ServerConfig } from './config/env.js';
import { applyHeapGrowth, releaseYoungGeneration, turnOffPretenuring } from './config/heap-tuning.js';
import { systemClock, type Clock } from './domain/common/clock.js';
import { createServices, type Services } from './services.js';
import { openStore } from './store/index.js';
import { openChangeFeed } from './store/open-change-feed.js';
import type { ChangeFeed } from './domain/common/changes.js';
import { loadCatalog } from './catalog/index.js';
import { loadTokenizer } from './canonical/index.js';
import { openLedgerJournal } from './store/ledger-journal/open.js';
import { startRetention } from './retention.js';

/** What a background failure logs: the message and code, never a query's parameters. */
function errorSummary(err: unknown): { message: string; code?: string } {
  if (!(err instanceof Error)) return { message: String(err) };
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? { message: err.message, code } : { message: err.message };
}

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  /** Stops accepting, lets in-flight requests finish, then closes the store. */
  close(): Promise<void>;
}

export interface StartOptions {
  config: ServerConfig;
  clock?: Clock;
  logger?: boolean | object;
  extensions?: AppExtension[];
  /** Environment for provider API keys named in the catalog (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Called once with a newly created bootstrap token (print it; it is never shown again). */
  onCreatedManagementToken?: (token: string, hash: string) => void;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  applyHeapGrowth(config.heapGrowthPercent);
  turnOffPretenuring();
  const { catalog, warnings } = await loadCatalog({
    path: config.configPath ?? undefined,
    env: options.env ?? process.env,
  });
  const store = openStore(config.databaseUrl);
  let services: Services | null = null;
  const startupNotes: string[] = [];
  let changeFeed: ChangeFeed | null = null;
  // Background components (ledger, change feed) log through the app's logger once it exists.
  let logLine: (msg: string, err?: unknown) => void = () => undefined;
  const log = (msg: string, err?: unknown) => logLine(msg, err);
  try {
    await store.migrate();
    changeFeed = openChangeFeed({
      databaseUrl: config.databaseUrl,
      externalChangeMarker: () => store.externalChangeMarker(),
      log,
    });
    // The OpenTelemetry SDK is loaded only when tracing is on: off, a call creates no trace objects.
    const tracer =
      config.tracing === null
        ? undefined
        : (await import('./observability/tracing.js')).createCallTracer({ config: config.tracing, log });
    const journal = await openLedgerJournal(config, store, { note: (msg) => startupNotes.push(msg), warn: log });
    services = createServices({
      store,
      catalog,
      catalogFile: { path: config.configPath, env: options.env ?? process.env },
      ledgerJournal: journal ?? undefined,
      clock: options.clock ?? systemClock,
      keyCacheRevalidateMs: config.keyCacheRevalidateMs,
      keyCacheGraceMs: config.keyCacheGraceMs,
      changeFeed,
      ledgerFlushMs: config.ledgerFlushMs,
      filtersFailOpen: config.filtersFailOpen,
      log,
      console: config.console,
      responses: config.responses,
      tracer,
      refusalsPerKeyPerMinute: config.refusalsPerKeyPerMinute,
      upstreamLimits: { maxBodyBytes: config.upstreamMaxBodyBytes, maxEventBytes: config.upstreamMaxEventBytes },
    });
    await changeFeed.start();
    // Bogus tokens are refused from memory once every stored digest is loaded (before the port opens).
    await services.knownDigests.start();
    const boot = await bootstrap(services, { managementKey: config.managementKey, ownerEmail: config.ownerEmail });
    if (boot.createdToken !== null && boot.managementKeyHash !== null) {
      options.onCreatedManagementToken?.(boot.createdToken, boot.managementKeyHash);
    }
    const app = await buildApp({
      services,
      bodyLimitBytes: config.bodyLimitBytes,
      logger: options.logger ?? { level: config.logLevel },
      extensions: options.extensions,
      streamKeepAliveAfterMs: config.streamKeepAliveAfterMs,
      streamKeepAliveEveryMs: config.streamKeepAliveEveryMs,
      console: {
        dir: config.console.dir,
        cookieSecure: config.console.cookieSecure,
        oidc: config.console.oidc,
        keySignIn: config.console.keySignIn,
      },
      authThrottle: {
        maxFailures: config.authFailureLimit,
        windowMs: config.authFailureWindowMs,
        maxAddresses: config.authFailureMaxAddresses,
      },
      authFailureDelayMs: config.authFailureDelayMs,
      trustProxy: config.trustProxy,
      clientTimeouts: { headersMs: config.headersTimeoutMs, requestMs: config.requestTimeoutMs },
    });
    for (const warning of warnings) app.log.warn({ warning }, 'catalog');
    for (const note of startupNotes) app.log.info(note);
    logLine = (msg, err) => app.log.warn(err === undefined ? {} : { err: errorSummary(err) }, msg);
    loadTokenizer();
    await app.listen({ port: config.port, host: config.host });
    releaseYoungGeneration();
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    let closing: Promise<void> | null = null;
    const running = services;
    const feed = changeFeed;
    const pruner = startRetention({ config: config.retention, store, clock: running.clock, log });
    return {
      app,
      services: running,
      url: `http://${host}:${port}`,
      close: () => {
        closing ??= (async () => {
          await app.close();
          await pruner.stop();
          await running.close();
          await feed.close();
          await store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await services?.close().catch(() => undefined);
    await changeFeed?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
}
