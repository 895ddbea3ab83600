import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'switchyard_session';
export const CSRF_HEADER = 'x-csrf-token';

export type CookieSecure = 'auto' | 'true' | 'false';

/** The session cookie's value from a `Cookie` header, if any (first occurrence wins). */
export function sessionCookie(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    // Session tokens are base64url: anything else is not ours.
    return /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined;
  }
  return undefined;
}

/** Whether the request reached us over HTTPS (directly or through a proxy that says so). */
export function overHttps(request: Pick<FastifyRequest, 'headers' | 'protocol'>): boolean {
  if (request.protocol === 'https') return true;
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/** `Set-Cookie` for the session: HttpOnly, SameSite=Strict, Path=/, Secure per setting. */
export function sessionSetCookie(
  request: Pick<FastifyRequest, 'headers' | 'protocol'>,
  secure: CookieSecure,
  value: string,
  maxAgeSeconds?: number,
): string {
  const parts = [`${SESSION_COOKIE}=${value}`, 'HttpOnly', 'SameSite=Strict', 'Path=/'];
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`);
  if (secure === 'true' || (secure === 'auto' && overHttps(request))) parts.push('Secure');
  return parts.join('; ');
}

export const clearSessionCookie = (request: Pick<FastifyRequest, 'headers' | 'protocol'>, secure: CookieSecure) =>
  sessionSetCookie(request, secure, '', 0);
