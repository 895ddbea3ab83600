/** The bare proxy as a process of its own: `node bare-proxy.js <upstream origin>`. */
import { reportReady } from '../child.js';
import { createBareProxy } from '../bare-proxy.js';

const origin = process.argv[2];
if (origin === undefined) throw new Error('usage: bare-proxy <upstream origin>');
const proxy = createBareProxy(origin);
proxy.server.listen(0, '127.0.0.1', () => {
  const address = proxy.server.address();
  if (typeof address === 'object' && address !== null) reportReady(address.port);
});
process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
