// Child-process entry for suites that measure the server process itself (resident memory, open
// file descriptors): starts the real server from the environment, reports its port over IPC and
// stops when told to (or when the parent goes away).
import { loadServerConfig } from '../../src/config/env.js';
import { startServer } from '../../src/server.js';

const server = await startServer({ config: loadServerConfig(process.env), logger: false });
const address = server.app.server.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('message', (msg: unknown) => {
  if (msg === 'stop') stop();
  if (msg === 'gc' && typeof globalThis.gc === 'function') {
    globalThis.gc();
    process.send?.('gc-done');
  }
  if (msg === 'memory') process.send?.({ memory: process.memoryUsage() });
});
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.send?.({ port });
