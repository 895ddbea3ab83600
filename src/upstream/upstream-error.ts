import { GatewayError } from '../errors/index.js';

/** Why an upstream call failed. */
export type UpstreamFailureKind =
  | 'http' // the upstream answered a non-2xx status
  | 'timeout' // connect, first-byte or idle timeout
  | 'connection' // refused, reset, DNS, socket closed mid-way
  | 'protocol' // a 2xx answer we could not understand, or a stream cut short
  | 'stream' // the upstream reported an error inside a 2xx stream
  | 'aborted'; // the caller's AbortSignal fired (client went away)

export interface UpstreamErrorOptions {
  kind: UpstreamFailureKind;
  status: number;
  code: string;
  message: string;
  providerId: string;
  retryable: boolean;
  upstreamStatus?: number | null;
  providerCode?: string | number | null;
  retryAfterMs?: number | null;
  cause?: unknown;
}

/**
 * A failed upstream call. It IS a GatewayError (so the one renderer handles it) with the
 * gateway-facing `status`, plus what routing needs to decide on retry/fallback:
 * - `retryable`: another attempt (same endpoint after backoff, or the next endpoint) may
 *   succeed and the client's request is not at fault;
 * - `kind`, `upstreamStatus`, `providerCode`, `retryAfterMs`.
 * Messages are sanitised: they never contain the endpoint API key or bearer-looking tokens.
 */
export class UpstreamError extends GatewayError {
  readonly kind: UpstreamFailureKind;
  readonly retryable: boolean;
  readonly providerId: string;
  readonly upstreamStatus: number | null;
  readonly providerCode: string | number | null;
  readonly retryAfterMs: number | null;

  constructor(options: UpstreamErrorOptions) {
    const retryAfterMs = options.retryAfterMs ?? null;
    const headers: Record<string, string> = {};
    if (retryAfterMs !== null && (options.status === 429 || options.status === 503)) {
      headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    }
    const metadata: Record<string, unknown> = { provider_name: options.providerId, error_type: options.code };
    if (options.providerCode !== undefined && options.providerCode !== null) {
      metadata.provider_code = options.providerCode;
    }
    super({
      status: options.status,
      code: options.code,
      message: options.message,
      metadata,
      headers,
      cause: options.cause,
    });
    this.name = 'UpstreamError';
    this.kind = options.kind;
    this.retryable = options.retryable;
    this.providerId = options.providerId;
    this.upstreamStatus = options.upstreamStatus ?? null;
    this.providerCode = options.providerCode ?? null;
    this.retryAfterMs = retryAfterMs;
  }
}

export function isUpstreamError(value: unknown): value is UpstreamError {
  return value instanceof UpstreamError;
}

const MAX_MESSAGE = 500;
const TOKENISH = /\b(sk-(?:ant-)?[A-Za-z0-9_-]{6})[A-Za-z0-9_-]{4,}/g;
const BEARER = /(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/** Removes the endpoint key and anything that looks like a secret; bounds the length. */
export function sanitizeMessage(message: string, apiKey: string | null): string {
  let out = message;
  if (apiKey !== null && apiKey.length >= 4) out = out.split(apiKey).join('***');
  out = out.replace(TOKENISH, '$1***').replace(BEARER, '$1***');
  // eslint-disable-next-line no-control-regex -- stripping control characters out of an upstream message is the point
  out = out.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').trim();
  return out.length > MAX_MESSAGE ? `${out.slice(0, MAX_MESSAGE)}…` : out;
}

export interface HttpFailure {
  providerId: string;
  apiKey: string | null;
  upstreamStatus: number;
  /** Message extracted from the vendor's error body, if any. */
  upstreamMessage: string | null;
  providerCode?: string | number | null;
  retryAfterMs?: number | null;
  /** `stream` when the status came from an error event inside a 2xx stream. */
  kind?: 'http' | 'stream';
}

/**
 * Maps an upstream HTTP status to the gateway's status (see docs/providers.md):
 * 400/404?/413/422 client faults stay 4xx; provider credential/billing problems (401/402/403/404)
 * are the operator's, not the client's, so they become 502 and allow fallback; 408 → 408;
 * 429 → 429; 503/529 → 503; other 5xx and unknown codes → 502.
 */
export function fromHttpStatus(failure: HttpFailure): UpstreamError {
  const s = failure.upstreamStatus;
  const detail = failure.upstreamMessage === null ? '' : sanitizeMessage(failure.upstreamMessage, failure.apiKey);
  const base = {
    kind: failure.kind ?? 'http',
    providerId: failure.providerId,
    upstreamStatus: s,
    providerCode: failure.providerCode ?? s,
    retryAfterMs: failure.retryAfterMs ?? null,
  };
  const withDetail = (prefix: string): string => (detail === '' ? prefix : `${prefix}: ${detail}`);
  if (s === 400 || s === 413 || s === 422) {
    const code = s === 413 ? 'payload_too_large' : 'invalid_request';
    return new UpstreamError({
      ...base,
      status: 400,
      code,
      retryable: false,
      message: withDetail('Provider rejected the request'),
    });
  }
  if (s === 408) {
    return new UpstreamError({
      ...base,
      status: 408,
      code: 'timeout',
      retryable: true,
      message: withDetail('Provider timed out'),
    });
  }
  if (s === 429) {
    return new UpstreamError({
      ...base,
      status: 429,
      code: 'rate_limit_exceeded',
      retryable: true,
      message: withDetail('Provider rate limit exceeded'),
    });
  }
  if (s === 401 || s === 403) {
    return new UpstreamError({
      ...base,
      status: 502,
      code: 'provider_unavailable',
      retryable: true,
      message: withDetail('Provider rejected the gateway credentials'),
    });
  }
  if (s === 402) {
    return new UpstreamError({
      ...base,
      status: 502,
      code: 'provider_unavailable',
      retryable: true,
      message: withDetail('Provider account has insufficient credits'),
    });
  }
  if (s === 404) {
    return new UpstreamError({
      ...base,
      status: 502,
      code: 'provider_unavailable',
      retryable: true,
      message: withDetail('Provider does not serve this model or path'),
    });
  }
  if (s === 503 || s === 529) {
    return new UpstreamError({
      ...base,
      status: 503,
      code: 'provider_overloaded',
      retryable: true,
      message: withDetail('Provider overloaded'),
    });
  }
  if (s >= 400 && s < 500) {
    return new UpstreamError({
      ...base,
      status: 400,
      code: 'invalid_request',
      retryable: false,
      message: withDetail('Provider rejected the request'),
    });
  }
  // 5xx (and any unexpected status): the detail of a server error is not the client's business.
  return new UpstreamError({
    ...base,
    status: 502,
    code: 'provider_unavailable',
    retryable: true,
    message: 'Provider returned error',
  });
}

/** A stream or body we could not use (bad JSON, cut stream, missing terminator). */
export function protocolError(providerId: string, message: string, cause?: unknown): UpstreamError {
  return new UpstreamError({
    kind: 'protocol',
    status: 502,
    code: 'provider_unavailable',
    retryable: true,
    providerId,
    message,
    cause,
  });
}

export function timeoutError(
  providerId: string,
  phase: 'connect' | 'first byte' | 'idle' | 'body',
  ms: number,
): UpstreamError {
  return new UpstreamError({
    kind: 'timeout',
    status: 408,
    code: 'timeout',
    retryable: true,
    providerId,
    message: `Provider ${phase} timeout after ${ms} ms`,
  });
}

export function abortedError(providerId: string, cause?: unknown): UpstreamError {
  return new UpstreamError({
    kind: 'aborted',
    status: 408,
    code: 'aborted',
    retryable: false,
    providerId,
    message: 'Request aborted by the caller',
    cause,
  });
}

/** Parses `retry-after-ms`, then `retry-after` (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(
  headers: Record<string, string | string[] | undefined>,
  now = Date.now(),
): number | null {
  const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const ra = first(headers['retry-after']);
  if (ra === undefined) return null;
  const trimmed = ra.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
