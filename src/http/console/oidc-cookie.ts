import type { FastifyRequest } from 'fastify';
import type { FlowChecks } from './oidc-client.js';
import { overHttps, type CookieSecure } from './cookie.js';

/** The sign-in in progress: state, nonce and PKCE verifier, for ten minutes, only on /console/auth. */
export const FLOW_COOKIE = 'switchyard_oidc';
const FLOW_SECONDS = 600;
const PART = /^[A-Za-z0-9_-]{16,128}$/;

function flowCookie(
  request: Pick<FastifyRequest, 'headers' | 'protocol'>,
  secure: CookieSecure,
  value: string,
  maxAge: number,
) {
  // Lax, not Strict: the IdP's redirect back to the callback is a cross-site navigation.
  const parts = [`${FLOW_COOKIE}=${value}`, 'HttpOnly', 'SameSite=Lax', 'Path=/console/auth', `Max-Age=${maxAge}`];
  if (secure === 'true' || (secure === 'auto' && overHttps(request))) parts.push('Secure');
  return parts.join('; ');
}

export const flowSetCookie = (
  request: Pick<FastifyRequest, 'headers' | 'protocol'>,
  secure: CookieSecure,
  checks: FlowChecks,
) => flowCookie(request, secure, `${checks.state}.${checks.nonce}.${checks.verifier}`, FLOW_SECONDS);

export const flowClearCookie = (request: Pick<FastifyRequest, 'headers' | 'protocol'>, secure: CookieSecure) =>
  flowCookie(request, secure, '', 0);

/** The checks of the sign-in this browser started, if its cookie is present and well-formed. */
export function flowChecks(request: Pick<FastifyRequest, 'headers'>): FlowChecks | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== FLOW_COOKIE) continue;
    const [state, nonce, verifier, ...rest] = part
      .slice(eq + 1)
      .trim()
      .split('.');
    if (rest.length > 0 || state === undefined || nonce === undefined || verifier === undefined) return null;
    if (![state, nonce, verifier].every((p) => PART.test(p))) return null;
    return { state, nonce, verifier };
  }
  return null;
}
