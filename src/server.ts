import type { FastifyInstance } from 'fastify';
import { buildApp, type AppExtension } from './app.js';
import { bootstrap } from './bootstrap.js';
import type { ServerConfig } from './config/env.js';
import { systemClock, type Clock } from './domain/common/clock.js';
import { createServices, type Services } from './services.js';
import { openStore } from './store/index.js';
import { loadCatalog } from './catalog/index.js';

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
  const { catalog, warnings } = await loadCatalog({ path: config.configPath ?? undefined, env: options.env ?? process.env });
  const store = openStore(config.databaseUrl);
  let services: Services | null = null;
  try {
    await store.migrate();
    services = createServices({
      store,
      catalog,
      clock: options.clock ?? systemClock,
      keyCacheRevalidateMs: config.keyCacheRevalidateMs,
      ledgerFlushMs: config.ledgerFlushMs,
      filtersFailOpen: config.filtersFailOpen,
    });
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
    });
    for (const warning of warnings) app.log.warn({ warning }, 'catalog');
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    let closing: Promise<void> | null = null;
    const running = services;
    return {
      app,
      services: running,
      url: `http://${host}:${port}`,
      close: () => {
        closing ??= (async () => {
          await app.close();
          await running.close();
          await store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await services?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
}
