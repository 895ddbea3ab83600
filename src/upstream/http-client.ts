import type { Pool } from 'undici';
import { UpstreamPools, type UpstreamPoolOptions } from './pools.js';
import type { TransportErrorContext } from './transport-errors.js';
import {
  UpstreamError,
  abortedError,
  fromHttpStatus,
  parseRetryAfter,
  protocolError,
  sanitizeMessage,
} from './upstream-error.js';
import { NO_AUTH, type OutgoingRequest, type UpstreamAuth } from './auth/index.js';
import { UpstreamExchange, type UpstreamResponse } from './exchange.js';

export type { UpstreamHeaders, UpstreamResponse } from './exchange.js';

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
  /**
   * Without any credential. A frozen object (e.g. built once per endpoint) lets the client reuse
   * its merge with the defaults.
   */
  headers: Readonly<Record<string, string>>;
  /** The credential headers of this request (absent: none), merged per request under `headers`. */
  auth?: UpstreamAuth;
  /** This call's W3C trace context (`traceparent`, `tracestate`), sent over `headers`. */
  traceHeaders?: Readonly<Record<string, string>> | undefined;
  body?: string;
  providerId: string;
  /** Only used to scrub it out of error messages. */
  apiKey: string | null;
  timeouts: UpstreamTimeouts;
  signal: AbortSignal;
}

export interface UpstreamHttpClientOptions extends UpstreamPoolOptions {
  pools?: UpstreamPools;
  /** Largest non-stream (JSON) body accepted (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** Largest single SSE event accepted (default DEFAULT_MAX_EVENT_BYTES). */
  maxEventBytes?: number;
}

/**
 * An answer over these limits fails as an upstream protocol error (502, or an error chunk once
 * streaming): a faulty or hostile upstream cannot make one call hold more than about this much.
 */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024;

const ERROR_BODY_BYTES = 64 * 1024;

/** Message and vendor code read out of an upstream's error body by its dialect (src/wire/<dialect>/outbound). */
export interface VendorError {
  message: string | null;
  code: string | number | null;
  /** The HTTP status to map instead of the answer's, when the vendor's code says otherwise (a refused key answered 400). */
  status?: number;
}

/** The single HTTP client of the gateway towards providers (undici Pool per origin). */
export class UpstreamHttpClient {
  private readonly pools: UpstreamPools;
  private readonly ownsPools: boolean;
  private readonly maxBodyBytes: number;
  private readonly maxEventBytes: number;
  private readonly targets = new Map<string, Target>();
  private readonly mergedHeaders = new WeakMap<Readonly<Record<string, string>>, Readonly<Record<string, string>>>();

  constructor(options: UpstreamHttpClientOptions = {}) {
    this.pools = options.pools ?? new UpstreamPools(options);
    this.ownsPools = options.pools === undefined;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  }

  /**
   * Sends the request; resolves with any status once headers arrived; rejects with UpstreamError.
   * A dispatch handler of our own (UpstreamExchange), not `pool.request`: no Readable per body,
   * no AsyncResource, one abort listener.
   */
  send(call: UpstreamCall): Promise<UpstreamResponse> {
    if (call.signal.aborted) return Promise.reject(abortedError(call.providerId, call.signal.reason));
    let url: Target;
    let pool: Pool;
    try {
      url = this.target(call);
      pool = this.pools.get(url.origin, call.timeouts.connectMs);
    } catch (err) {
      return Promise.reject(
        err instanceof Error ? err : new Error('upstream target could not be resolved', { cause: err }),
      );
    }
    const headers = this.headersFor(call);
    let credential: Record<string, string> | Promise<Record<string, string>>;
    try {
      credential = (call.auth ?? NO_AUTH).headersFor(outgoing(call, url.url, headers));
    } catch (err) {
      return Promise.reject(credentialError(call.providerId, err));
    }
    if (credential instanceof Promise)
      return credential.then(
        (c) => this.dispatch(call, url, pool, withCredential(c, headers)),
        (err: unknown) => Promise.reject(credentialError(call.providerId, err)),
      );
    return this.dispatch(call, url, pool, withCredential(credential, headers));
  }

  private dispatch(
    call: UpstreamCall,
    url: Target,
    pool: Pool,
    headers: Readonly<Record<string, string>>,
  ): Promise<UpstreamResponse> {
    if (call.signal.aborted) return Promise.reject(abortedError(call.providerId, call.signal.reason));
    const ctx: TransportErrorContext = {
      providerId: call.providerId,
      apiKey: call.apiKey,
      signal: call.signal,
      timeouts: call.timeouts,
    };
    const exchange = new UpstreamExchange({
      ctx,
      firstByteDeadline: Date.now() + call.timeouts.firstByteMs,
      maxBodyBytes: this.maxBodyBytes,
      maxEventBytes: this.maxEventBytes,
    });
    const started = exchange.started();
    pool.dispatch(
      {
        path: url.path,
        method: call.method ?? 'POST',
        headers,
        body: call.body ?? null,
        // The exchange's own timer keeps the first-byte and idle deadlines: undici's timers would be
        // one more timer object per request, kept until undici's next sweep of them.
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      exchange,
    );
    return started;
  }

  /** The call's headers over our defaults (then its trace context); a frozen object's merge is reused. */
  private headersFor(call: UpstreamCall): Readonly<Record<string, string>> {
    const merged = this.endpointHeaders(call);
    return call.traceHeaders === undefined ? merged : { ...merged, ...call.traceHeaders };
  }

  private endpointHeaders(call: UpstreamCall): Readonly<Record<string, string>> {
    const own = call.headers;
    const reusable = Object.isFrozen(own) && own['content-type'] !== undefined;
    if (reusable) {
      const merged = this.mergedHeaders.get(own);
      if (merged !== undefined) return merged;
    }
    const headers: Record<string, string> = { 'accept-encoding': 'identity', 'user-agent': 'switchyard', ...own };
    if (call.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    if (reusable) this.mergedHeaders.set(own, Object.freeze(headers));
    return headers;
  }

  async close(): Promise<void> {
    if (this.ownsPools) await this.pools.close();
  }

  /** Origin and path of an endpoint URL, parsed once per distinct URL (a catalog has few). */
  private target(call: UpstreamCall): Target {
    let target = this.targets.get(call.url);
    if (target === undefined) {
      let url: URL;
      try {
        url = new URL(call.url);
      } catch (err) {
        throw protocolError(call.providerId, 'Provider base URL is invalid', err);
      }
      target = { origin: url.origin, path: url.pathname + url.search, url };
      if (this.targets.size >= 1024) this.targets.clear();
      this.targets.set(call.url, target);
    }
    return target;
  }
}

/** An endpoint URL, parsed once. */
interface Target {
  origin: string;
  path: string;
  url: URL;
}

/** What a signer reads of a request (its headers still without the credential). */
function outgoing(call: UpstreamCall, url: URL, headers: Readonly<Record<string, string>>): OutgoingRequest {
  return { method: call.method ?? 'POST', url, headers, body: call.body ?? null };
}

/**
 * The credential goes under the endpoint's own headers (a catalog `headers` entry of the same
 * name wins, as it always has); a request without one keeps the (reused) merged object.
 */
function withCredential(
  credential: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  for (const _ in credential) return { ...credential, ...headers };
  return headers;
}

/** A credential that could not be produced: the provider is unusable now, the next one may serve. */
function credentialError(providerId: string, err: unknown): UpstreamError {
  const reason = err instanceof Error ? err.message : 'unknown error';
  return new UpstreamError({
    kind: 'connection',
    status: 502,
    code: 'upstream_auth_failed',
    message: `Provider credential unavailable: ${sanitizeMessage(reason, null)}`,
    providerId,
    retryable: true,
    cause: err,
  });
}

/**
 * For a non-2xx response: reads (a bounded part of) the vendor error body, has the dialect's
 * `readError` find its message and code, and throws the mapped UpstreamError. Always frees the socket.
 */
export async function failFromResponse(
  res: UpstreamResponse,
  call: Pick<UpstreamCall, 'providerId' | 'apiKey'>,
  readError: (body: unknown) => VendorError,
): Promise<never> {
  let raw = '';
  try {
    raw = await res.text(ERROR_BODY_BYTES);
  } catch {
    res.discard();
  }
  let parsed: unknown;
  try {
    parsed = raw === '' ? null : (JSON.parse(raw) as unknown);
  } catch {
    parsed = null;
  }
  const vendor = readError(parsed);
  throw fromHttpStatus({
    providerId: call.providerId,
    apiKey: call.apiKey,
    upstreamStatus: vendor.status ?? res.status,
    upstreamMessage: vendor.message ?? (raw.trim() === '' ? null : raw.slice(0, 300)),
    providerCode: vendor.code,
    retryAfterMs: parseRetryAfter(res.headers),
  });
}
