/**
 * Switchyard as in production (`startServer`, pino at the configured level to stdout, which the
 * benchmark sends to a log file), configured from the environment like `npm start`, with PORT 0;
 * reports its port over IPC and shuts down gracefully on SIGTERM.
 */
import { loadServerConfig } from '../../../src/config/env.js';
import { startServer } from '../../../src/server.js';
import { reportReady } from '../child.js';

const server = await startServer({ config: loadServerConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' }) });
reportReady(Number(new URL(server.url).port));
process.on('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
