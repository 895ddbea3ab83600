/**
 * The policy floor as a process of its own: `node floor.js <upstream origin> <journal file>`,
 * the API key's token in BENCH_FLOOR_KEY (never on the command line).
 */
import { reportReady } from '../child.js';
import { createFloorProxy } from '../floor-proxy.js';

const [origin, journalPath] = process.argv.slice(2);
const token = process.env.BENCH_FLOOR_KEY;
if (origin === undefined || journalPath === undefined || token === undefined)
  throw new Error('usage: BENCH_FLOOR_KEY=<token> floor <upstream origin> <journal file>');
const proxy = createFloorProxy({ origin, token, journalPath });
proxy.server.listen(0, '127.0.0.1', () => {
  const address = proxy.server.address();
  if (typeof address === 'object' && address !== null) reportReady(address.port);
});
process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
