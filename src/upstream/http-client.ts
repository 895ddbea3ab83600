import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { UpstreamPools, type UpstreamPoolOptions } from './pools.js';
import { mapTransportError, type TransportErrorContext } from './transport-errors.js';
import { abortedError, fromHttpStatus, parseRetryAfter, protocolError, timeoutError, UpstreamError } from './upstream-error.js';
import { extractVendorError } from './error-body.js';

export interface UpstreamTimeouts {
  /** TCP/TLS connect. */
  connectMs: number;
  /** From dispatch until response headers, and until the first body byte (measured from dispatch). */
  firstByteMs: number;
  /** Longest silence between two body chunks after the first. */
  idleMs: number;
}

export interface UpstreamCall {
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  providerId: string;
  /** Only used to scrub it out of error messages. */
  apiKey: string | null;
  timeouts: UpstreamTimeouts;
  signal: AbortSignal;
}

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

export interface UpstreamResponse {
  status: number;
  headers: UpstreamHeaders;
  /** The body as chunks under the first-byte / idle timers and the abort signal. Single use. */
  chunks(): AsyncIterable<Buffer>;
  /** Whole body as text, at most `maxBytes` (default: client limit) or a protocol error. */
  text(maxBytes?: number): Promise<string>;
  /** Whole body parsed as JSON (protocol error when it is not JSON). */
  json(): Promise<unknown>;
  /** Drops the body and frees the socket. Safe to call more than once. */
  discard(): void;
}

export interface UpstreamHttpClientOptions extends UpstreamPoolOptions {
  pools?: UpstreamPools;
  /** Largest non-stream body accepted (default 32 MiB). */
  maxBodyBytes?: number;
}

const ERROR_BODY_BYTES = 64 * 1024;

/** The single HTTP client of the gateway towards providers (undici Pool per origin). */
export class UpstreamHttpClient {
  private readonly pools: UpstreamPools;
  private readonly ownsPools: boolean;
  private readonly maxBodyBytes: number;
  private readonly targets = new Map<string, { origin: string; path: string }>();

  constructor(options: UpstreamHttpClientOptions = {}) {
    this.pools = options.pools ?? new UpstreamPools(options);
    this.ownsPools = options.pools === undefined;
    this.maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024;
  }

  /** Sends the request; resolves with any status once headers arrived; rejects with UpstreamError. */
  async send(call: UpstreamCall): Promise<UpstreamResponse> {
    const started = Date.now();
    const ctx: TransportErrorContext = { providerId: call.providerId, apiKey: call.apiKey, signal: call.signal, timeouts: call.timeouts };
    if (call.signal.aborted) throw abortedError(call.providerId, call.signal.reason);
    const url = this.target(call);
    const pool = this.pools.get(url.origin, call.timeouts.connectMs);
    const headers: Record<string, string> = { 'accept-encoding': 'identity', 'user-agent': 'switchyard', ...call.headers };
    if (call.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    let res: Dispatcher.ResponseData;
    try {
      res = await pool.request({
        path: url.path,
        method: call.method ?? 'POST',
        headers,
        body: call.body ?? null,
        signal: call.signal,
        headersTimeout: call.timeouts.firstByteMs,
        bodyTimeout: 0, // our own first-byte / idle timers below
      });
    } catch (err) {
      throw mapTransportError(err, ctx);
    }
    const firstByteDeadline = started + call.timeouts.firstByteMs;
    return makeResponse(res.statusCode, res.headers as UpstreamHeaders, res.body, { ctx, firstByteDeadline, maxBodyBytes: this.maxBodyBytes });
  }

  async close(): Promise<void> {
    if (this.ownsPools) await this.pools.close();
  }

  /** Origin and path of an endpoint URL, parsed once per distinct URL (a catalog has few). */
  private target(call: UpstreamCall): { origin: string; path: string } {
    let target = this.targets.get(call.url);
    if (target === undefined) {
      let url: URL;
      try {
        url = new URL(call.url);
      } catch (err) {
        throw protocolError(call.providerId, 'Provider base URL is invalid', err);
      }
      target = { origin: url.origin, path: url.pathname + url.search };
      if (this.targets.size >= 1024) this.targets.clear();
      this.targets.set(call.url, target);
    }
    return target;
  }
}

interface ResponseSettings {
  ctx: TransportErrorContext;
  firstByteDeadline: number;
  maxBodyBytes: number;
}

function makeResponse(status: number, headers: UpstreamHeaders, body: Readable, s: ResponseSettings): UpstreamResponse {
  let used = false;
  const discard = (): void => {
    if (!body.destroyed) body.destroy();
  };
  const chunks = (): AsyncIterable<Buffer> => {
    if (used) throw new Error('upstream body already consumed');
    used = true;
    return timedChunks(body, s);
  };
  const text = async (maxBytes = s.maxBodyBytes): Promise<string> => {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of chunks()) {
      size += chunk.length;
      if (size > maxBytes) {
        discard();
        throw protocolError(s.ctx.providerId, `Provider response exceeds ${maxBytes} bytes`);
      }
      parts.push(chunk);
    }
    return Buffer.concat(parts).toString('utf8');
  };
  const json = async (): Promise<unknown> => {
    const raw = await text();
    try {
      return JSON.parse(raw) as unknown;
    } catch (err) {
      throw protocolError(s.ctx.providerId, 'Provider returned invalid JSON', err);
    }
  };
  return { status, headers, chunks, text, json, discard };
}

/**
 * The body's chunks under the first-byte and idle timers. The idle timer is created once and
 * re-armed with `refresh()` each time a chunk is awaited; it is ignored when it fires while the
 * consumer holds a chunk (that time does not count). Timeout errors are built only when a timer
 * really fires: an Error per chunk (stack trace included) was a measurable part of every call.
 */
async function* timedChunks(body: Readable, s: ResponseSettings): AsyncGenerator<Buffer, void, undefined> {
  const { ctx } = s;
  let first = true;
  let waiting = true;
  const fire = (): void => {
    if (!waiting) return;
    body.destroy(
      first ? timeoutError(ctx.providerId, 'first byte', ctx.timeouts.firstByteMs) : timeoutError(ctx.providerId, 'idle', ctx.timeouts.idleMs),
    );
  };
  const onAbort = (): void => {
    body.destroy(abortedError(ctx.providerId, ctx.signal.reason));
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const firstByte = setTimeout(fire, Math.max(1, s.firstByteDeadline - Date.now()));
  let idle: NodeJS.Timeout | null = null;
  let finished = false;
  try {
    if (ctx.signal.aborted) onAbort();
    for (;;) {
      waiting = true;
      if (!first) {
        if (idle === null) idle = setTimeout(fire, ctx.timeouts.idleMs);
        else idle.refresh();
      }
      const step = await iterator.next();
      waiting = false;
      if (step.done === true) {
        finished = true;
        return;
      }
      if (first) {
        first = false;
        clearTimeout(firstByte);
      }
      yield step.value;
    }
  } catch (err) {
    throw mapTransportError(err, ctx);
  } finally {
    clearTimeout(firstByte);
    if (idle !== null) clearTimeout(idle);
    ctx.signal.removeEventListener('abort', onAbort);
    if (!finished && !body.destroyed) body.destroy();
  }
}

/**
 * For a non-2xx response: reads (a bounded part of) the vendor error body and throws the mapped
 * UpstreamError. Always frees the socket.
 */
export async function failFromResponse(res: UpstreamResponse, call: Pick<UpstreamCall, 'providerId' | 'apiKey'>): Promise<never> {
  let raw = '';
  try {
    raw = await res.text(ERROR_BODY_BYTES);
  } catch {
    res.discard();
  }
  let parsed: unknown = null;
  try {
    parsed = raw === '' ? null : (JSON.parse(raw) as unknown);
  } catch {
    parsed = null;
  }
  const vendor = extractVendorError(parsed);
  throw fromHttpStatus({
    providerId: call.providerId,
    apiKey: call.apiKey,
    upstreamStatus: res.status,
    upstreamMessage: vendor.message ?? (raw.trim() === '' ? null : raw.slice(0, 300)),
    providerCode: vendor.code,
    retryAfterMs: parseRetryAfter(res.headers),
  });
}
