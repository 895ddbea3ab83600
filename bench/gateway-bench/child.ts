import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { request } from 'node:http';

/** A process of the benchmark (upstream or a gateway), optionally pinned to CPU cores. */
export interface BenchChild {
  name: string;
  pid: number;
  port: number;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  /** Script and arguments for `node`. */
  args: string[];
  /** `taskset -c` core list, or null to leave it unpinned. */
  cores: string | null;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr go to this file (gateways log there, as in production). */
  logFile: string;
  /** The child sends `{ port }` over IPC when ready (else `port` must be given and polled). */
  port?: number;
  readyTimeoutMs?: number;
}

/** `node ARGS`, under `taskset -c CORES` unless `cores` is null. */
export function nodeCommand(cores: string | null, args: string[]): { file: string; argv: string[] } {
  return cores === null
    ? { file: process.execPath, argv: args }
    : { file: 'taskset', argv: ['-c', cores, process.execPath, ...args] };
}

function ipcPort(child: ChildProcess, timeoutMs: number, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not report ready within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited early with code ${String(code)}`));
    });
    child.on('message', (msg: unknown) => {
      if (typeof msg === 'object' && msg !== null && 'port' in msg && typeof msg.port === 'number') {
        clearTimeout(timer);
        resolve(msg.port);
      }
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method: 'GET', timeout: 500 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

async function pollPort(child: ChildProcess, port: number, timeoutMs: number, name: string): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited early with code ${child.exitCode}`);
    if (await answers(port)) return port;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not listen on ${port} within ${timeoutMs} ms`);
}

export async function spawnChild(options: SpawnOptions): Promise<BenchChild> {
  const { file, argv } = nodeCommand(options.cores, options.args);
  const log = openSync(options.logFile, 'a');
  const child = spawn(file, argv, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', log, log, 'ipc'],
  });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name} could not be started`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  try {
    const timeout = options.readyTimeoutMs ?? 30_000;
    const port =
      options.port === undefined
        ? await ipcPort(child, timeout, options.name)
        : await pollPort(child, options.port, timeout, options.name);
    child.channel?.unref();
    return { name: options.name, pid, port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Tells the parent which port this child listens on (no-op outside the benchmark). */
export function reportReady(port: number): void {
  process.send?.({ port });
}
