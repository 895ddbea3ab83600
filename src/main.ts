#!/usr/bin/env node
import { ConfigError, loadServerConfig } from './config/env.js';
import { holdYoungGeneration } from './config/heap-tuning.js';

/** Process entry: read env once, start, and shut down gracefully on SIGTERM/SIGINT. */
export async function serve(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let config;
  try {
    config = loadServerConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`switchyard: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  // The server's modules are loaded only now, with V8's young generation held small while they
  // load and the server starts (released once it listens): a static import would load them first.
  holdYoungGeneration();
  const { startServer } = await import('./server.js');
  const server = await startServer({
    config,
    onCreatedManagementToken: (token, hash) => {
      process.stdout.write(
        [
          '',
          '  A management key was created for this new store. It is shown only this once:',
          '',
          `    ${token}`,
          '',
          `  (key hash ${hash}; set SWITCHYARD_MANAGEMENT_KEY to choose your own token instead)`,
          '',
        ].join('\n') + '\n',
      );
    },
  });
  server.app.log.info({ url: server.url }, 'switchyard listening');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // SIGHUP re-reads SWITCHYARD_CONFIG; an invalid file keeps the running catalog (docs/configuration-catalog.md).
  process.on('SIGHUP', () => {
    const reloader = server.services.catalogReloader;
    if (reloader === null || stopping) return;
    reloader.reload().then(
      (outcome) => {
        if (outcome.ok)
          server.app.log.info(
            {
              source: outcome.source,
              models: outcome.models,
              added: outcome.addedModels,
              removed: outcome.removedModels,
            },
            'catalog reloaded',
          );
        else
          server.app.log.error(
            { source: outcome.source, errors: outcome.errors },
            'catalog reload refused: the file is invalid, the running catalog is kept',
          );
      },
      (error: unknown) =>
        server.app.log.error({ err: error instanceof Error ? error.message : String(error) }, 'catalog reload failed'),
    );
  });
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  serve().catch((error: unknown) => {
    process.stderr.write(`switchyard: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
