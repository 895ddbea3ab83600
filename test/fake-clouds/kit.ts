import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Json } from '../fake-upstream/json.js';
import { sendJson } from '../fake-upstream/server.js';
import { makeScript, type CloudScript } from './script.js';

export { sendJson };

/** One call a fake cloud received. */
export interface CloudRequest {
  method: string;
  /** Path as sent on the wire (still percent-encoded). */
  rawPath: string;
  /** Path with percent-escapes decoded (model ids with `:` read naturally). */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** Parsed JSON object body, or null. */
  body: Json | null;
  /** The script this call was answered with (null when it was refused before taking one). */
  script: CloudScript | null;
}

export interface CloudCall {
  request: CloudRequest;
  res: ServerResponse;
  /** Takes the next queued script (once per call); a call refused earlier leaves the queue alone. */
  takeScript: () => CloudScript;
}

export interface CloudFake {
  url: string;
  requests: CloudRequest[];
  queue(script: Partial<CloudScript> & { text?: string }): void;
  reset(): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** Starts a fake on 127.0.0.1 and an ephemeral port; `handle` answers every call. */
export async function startCloudServer(handle: (call: CloudCall) => Promise<void>): Promise<CloudFake> {
  const requests: CloudRequest[] = [];
  let queued: CloudScript[] = [];
  const server = createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: `fake cloud failed: ${String(error)}` });
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readRaw(req);
    if (raw === null) {
      sendJson(res, 413, { message: 'Request body too large' });
      return;
    }
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const request: CloudRequest = {
      method: req.method ?? 'GET',
      rawPath,
      path: safeDecode(rawPath),
      query: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)),
      headers: req.headers,
      raw,
      body: parseJson(raw),
      script: null,
    };
    requests.push(request);
    const takeScript = (): CloudScript => {
      request.script ??= queued.shift() ?? makeScript();
      return request.script;
    };
    await handle({ request, res, takeScript });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    queue: (script) => queued.push(makeScript(script)),
    reset: () => {
      requests.length = 0;
      queued = [];
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readRaw(req: IncomingMessage): Promise<Buffer | null> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

function parseJson(raw: Buffer): Json | null {
  if (raw.length === 0) return null;
  try {
    const value = JSON.parse(raw.toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Waits the script's first-byte delay; false when the client went away meanwhile. */
export async function firstByteDelay(res: ServerResponse, script: CloudScript): Promise<boolean> {
  if (script.firstByteDelayMs > 0) await sleep(script.firstByteDelayMs);
  return !res.destroyed;
}

/**
 * Writes a 200 stream of frames (SSE text or binary event-stream messages), pausing
 * `eventDelayMs` between them; `cutAfterEvents` destroys the socket after that many frames.
 */
export async function sendFrames(
  res: ServerResponse,
  contentType: string,
  frames: readonly (string | Uint8Array)[],
  script: CloudScript,
  headers: Record<string, string> = {},
): Promise<void> {
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
  let sent = 0;
  for (const frame of frames) {
    if (res.destroyed) return;
    if (script.cutAfterEvents !== null && sent >= script.cutAfterEvents) {
      await sleep(5);
      res.socket?.destroy();
      return;
    }
    if (sent > 0 && script.eventDelayMs > 0) await sleep(script.eventDelayMs);
    res.write(frame);
    sent++;
  }
  res.end();
}

/** A JSON answer of 200, or half of it and a destroyed socket when the script cuts the answer. */
export async function sendJsonOrCut(
  res: ServerResponse,
  body: Json,
  script: CloudScript,
  headers: Record<string, string> = {},
): Promise<void> {
  if (script.cutAfterEvents === null) {
    sendJson(res, 200, body, headers);
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  await sleep(5);
  res.socket?.destroy();
}

export function sseFrame(data: unknown, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** The single value of a header (first of a repeated one), or undefined. */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header(headers, 'authorization') ?? '');
  return m?.[1] ?? null;
}
