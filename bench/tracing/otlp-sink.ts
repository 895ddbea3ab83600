/**
 * A stand-in OpenTelemetry collector for the tracing benchmark: accepts OTLP/HTTP posts, reads
 * and discards their bodies, answers `{}`. Counts posts and bytes and prints them on SIGTERM (to
 * its log file). Reports its port over IPC.
 */
import { createServer } from 'node:http';
import { reportReady } from '../gateway-bench/child.js';

let posts = 0;
let bytes = 0;
const server = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    posts++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  reportReady(typeof address === 'object' && address !== null ? address.port : 0);
});
process.on('SIGTERM', () => {
  process.stdout.write(`otlp sink: ${posts} posts, ${bytes} bytes\n`);
  server.close(() => process.exit(0));
});
