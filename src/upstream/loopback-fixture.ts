import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UpstreamCall } from './http-client.js';
import { isUpstreamError, type UpstreamError } from './upstream-error.js';

/** A loopback upstream for the transport's tests: each test answers through its own path, `/<name>` → handler. */
export interface LoopbackUpstream {
  readonly handlers: Map<string, (req: IncomingMessage, res: ServerResponse) => void>;
  /** Resolves when the server's response on `/<name>` closed. */
  readonly closed: Map<string, Promise<void>>;
  /** A call to `/<name>` (short timeouts: 1 s to connect and to the first byte, 150 ms idle). */
  call(name: string, overrides?: Partial<UpstreamCall>): UpstreamCall;
  close(): Promise<void>;
}

export async function loopbackUpstream(): Promise<LoopbackUpstream> {
  const handlers = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const closed = new Map<string, Promise<void>>();
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    closed.set(name, new Promise((resolve) => res.on('close', () => resolve())));
    req.resume();
    req.on('end', () => handlers.get(name)?.(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    handlers,
    closed,
    call: (name, overrides = {}) => ({
      url: `${base}/${name}`,
      headers: { accept: 'application/json' },
      body: '{}',
      providerId: 'p',
      apiKey: 'sk-secret',
      timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 150 },
      signal: new AbortController().signal,
      ...overrides,
    }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The UpstreamError `promise` rejects with (fails the test when it resolves or rejects otherwise). */
export async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isUpstreamError(err), `UpstreamError expected, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}
