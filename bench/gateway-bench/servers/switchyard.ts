/**
 * Switchyard as in production (`startServer`, pino at the configured level to stdout, which the
 * benchmark sends to a log file), configured from the environment like `npm start`, with PORT 0;
 * reports its port over IPC and shuts down gracefully on SIGTERM. With BENCH_LOOP_DELAY=1 it
 * also writes event-loop delay percentiles to stderr every 5 s (the log file).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadServerConfig } from '../../../src/config/env.js';
import { startServer } from '../../../src/server.js';
import { reportReady } from '../child.js';

const server = await startServer({ config: loadServerConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' }) });
reportReady(Number(new URL(server.url).port));
if (process.env.BENCH_LOOP_DELAY === '1') {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  setInterval(() => {
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    process.stderr.write(
      `loop delay p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} max ${ms(delay.max)} ms\n`,
    );
    delay.reset();
  }, 5000).unref();
}
process.on('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
