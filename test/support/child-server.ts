import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateToken } from '../../src/domain/keys/tokens.js';

/** The real server in its own process, so its memory and descriptors can be read from /proc. */
export interface ChildServer {
  pid: number;
  api: string;
  managementToken: string;
  /** Resident set size of the server process, bytes. */
  rssBytes(): number;
  /** Open file descriptors of the server process. */
  fdCount(): number;
  /** Asks the child to run a full GC (it is started with --expose-gc) and waits for it. */
  gc(): Promise<void>;
  /** The child's `process.memoryUsage()` (heap, external and array buffers next to the RSS). */
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'server-child.js');

export async function startChildServer(options: {
  databaseUrl: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<ChildServer> {
  const managementToken = generateToken();
  const child = fork(CHILD, [], {
    execArgv: ['--expose-gc'],
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      SWITCHYARD_DATABASE_URL: options.databaseUrl,
      SWITCHYARD_MANAGEMENT_KEY: managementToken,
      SWITCHYARD_LOG_LEVEL: 'error',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('server child did not start');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server child not ready')), options.readyTimeoutMs ?? 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server child exited early (${String(code)})`));
    });
    child.on('message', (msg: unknown) => {
      if (typeof msg === 'object' && msg !== null && 'port' in msg && typeof msg.port === 'number') {
        clearTimeout(timer);
        resolve(msg.port);
      }
    });
  });
  return {
    pid,
    api: `http://127.0.0.1:${port}/api/v1`,
    managementToken,
    rssBytes: () => {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const match = /VmRSS:\s+(\d+) kB/.exec(status);
      return match?.[1] === undefined ? 0 : Number(match[1]) * 1024;
    },
    fdCount: () => readdirSync(`/proc/${pid}/fd`).length,
    gc: () =>
      new Promise<void>((resolve) => {
        const onMessage = (msg: unknown) => {
          if (msg !== 'gc-done') return;
          child.off('message', onMessage);
          resolve();
        };
        child.on('message', onMessage);
        child.send('gc');
      }),
    memory: () =>
      new Promise<NodeJS.MemoryUsage>((resolve) => {
        const onMessage = (msg: unknown) => {
          if (typeof msg !== 'object' || msg === null || !('memory' in msg)) return;
          child.off('message', onMessage);
          resolve(msg.memory as NodeJS.MemoryUsage);
        };
        child.on('message', onMessage);
        child.send('memory');
      }),
    stop: async () => {
      if (child.exitCode === null && child.connected) child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
