import type { UpstreamAuth, UpstreamAuthScheme } from './types.js';

/**
 * Credentials that never change: one key in one header. The headers object is built once and
 * handed to every request; the HTTP client merges it per request, so the key is never part of a
 * cached endpoint or target header object.
 */
function oneHeader(name: string, value: string): UpstreamAuth {
  const headers = Object.freeze({ [name]: value });
  return { headersFor: () => headers };
}

const NONE: Record<string, string> = Object.freeze({});

/** No credential (a local upstream, or one whose key is in the catalog's `headers`). */
export const NO_AUTH: UpstreamAuth = Object.freeze({ headersFor: () => NONE });

/** `authorization: Bearer <key>` (OpenAI and every OpenAI-compatible vendor). */
export const bearerAuth = (key: string): UpstreamAuth => oneHeader('authorization', `Bearer ${key}`);

/** `x-api-key: <key>` (Anthropic). */
export const xApiKeyAuth = (key: string): UpstreamAuth => oneHeader('x-api-key', key);

/** The key in a header the vendor names (e.g. Azure OpenAI's `api-key`). */
export const headerKeyAuth = (header: string, key: string): UpstreamAuth => oneHeader(header.toLowerCase(), key);

/**
 * The static credential of a scheme the wire registry names; no key means no credential. A key on
 * a signing scheme (`sigv4`: a Bedrock API key) is a bearer token in place of a signature; a token
 * scheme (`google-oauth`) has no static credential: its provider gets a token source.
 */
export function staticAuth(scheme: UpstreamAuthScheme, key: string | null): UpstreamAuth {
  if (key === null || scheme === 'none' || scheme === 'google-oauth') return NO_AUTH;
  if (scheme === 'api-key' || scheme === 'x-goog-api-key') return headerKeyAuth(scheme, key);
  return scheme === 'x-api-key' ? xApiKeyAuth(key) : bearerAuth(key);
}
