import { createServer, type RequestListener, type Server } from 'node:http';
import { pipeline } from 'node:stream';
import { Pool } from 'undici';

const HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

function forwardable(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP.has(name)) out[name] = value;
  return out;
}

/**
 * The floor for any Node gateway: node:http in, one undici Pool out, request body streamed
 * through, response headers copied (minus hop-by-hop) and the body piped back. No parsing.
 */
export function createBareProxy(origin: string): ProxyServer {
  const pool = proxyPool(origin);
  return proxyServer(
    (req, res) => {
      pool
        .request({
          path: req.url ?? '/',
          method: req.method === 'GET' ? 'GET' : 'POST',
          headers: forwardable(req.headers),
          body: req,
        })
        .then(
          (up) => {
            res.writeHead(up.statusCode, forwardable(up.headers));
            try {
              pipeline(up.body, res, () => undefined);
            } catch {
              // The client left before the answer: Node 24's pipeline throws on a destroyed target.
              up.body.dump().catch(() => undefined);
            }
          },
          () => {
            if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
            res.end('{"error":{"message":"bad gateway"}}');
          },
        );
    },
    () => pool.close(),
  );
}

/** The one undici Pool out of every proxy of the benchmark (bare and floor: the same options). */
export const proxyPool = (origin: string): Pool =>
  new Pool(origin, { connections: 1024, pipelining: 1, keepAliveTimeout: 60_000 });

export interface ProxyServer {
  server: Server;
  close(): Promise<void>;
}

/** A proxy's `node:http` server with the benchmark's timeouts; `close` ends its connections, then runs `after`. */
export function proxyServer(handler: RequestListener, after: () => Promise<void>): ProxyServer {
  const server = createServer(handler);
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 130_000;
  return {
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await after();
    },
  };
}
