import {
  abortedError,
  isUpstreamError,
  protocolError,
  timeoutError,
  UpstreamError,
  sanitizeMessage,
} from './upstream-error.js';

export interface TransportErrorContext {
  providerId: string;
  apiKey: string | null;
  signal: AbortSignal;
  timeouts: { connectMs: number; firstByteMs: number; idleMs: number };
}

const CONNECTION_CODES = new Set([
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

function errorCode(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/** Turns an undici / socket failure into an UpstreamError (the caller's abort wins). */
export function mapTransportError(err: unknown, ctx: TransportErrorContext): UpstreamError {
  if (isUpstreamError(err)) return err;
  if (ctx.signal.aborted) return abortedError(ctx.providerId, err);
  const code = errorCode(err);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return timeoutError(ctx.providerId, 'connect', ctx.timeouts.connectMs);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return timeoutError(ctx.providerId, 'first byte', ctx.timeouts.firstByteMs);
  if (code === 'UND_ERR_BODY_TIMEOUT') return timeoutError(ctx.providerId, 'idle', ctx.timeouts.idleMs);
  const raw = err instanceof Error ? err.message : String(err);
  if (code !== null && CONNECTION_CODES.has(code)) {
    return new UpstreamError({
      kind: 'connection',
      status: 502,
      code: 'provider_unavailable',
      retryable: true,
      providerId: ctx.providerId,
      message: `Provider connection failed (${code}): ${sanitizeMessage(raw, ctx.apiKey)}`,
      cause: err,
    });
  }
  return protocolError(ctx.providerId, `Provider transport error: ${sanitizeMessage(raw, ctx.apiKey)}`, err);
}
