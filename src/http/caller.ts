import type { IncomingHttpHeaders } from 'node:http';
import { UNKNOWN_CALLER, type CallerInfo } from '../gateway/caller.js';

/**
 * Reads who is calling from the request: user agent, session, origin, and the client headers a
 * native Messages pass-through forwards. Values are cut to a bounded length (they are stored).
 */

/**
 * `anthropic-*` headers a native Messages pass-through forwards to the upstream: the API version
 * and the betas the body's fields need (`context_management` is refused without its beta).
 * Betas the endpoint configures itself are kept beside the client's. No other client header
 * reaches an upstream.
 */
export const FORWARDED_ANTHROPIC_HEADERS: readonly string[] = ['anthropic-version', 'anthropic-beta'];

/** Session headers, in order of preference. */
const SESSION_HEADERS = ['x-claude-code-session-id', 'x-session-id', 'session_id', 'session-id'];

const MAX_VALUE = 512;

function header(headers: IncomingHttpHeaders, name: string): string | null {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed.slice(0, MAX_VALUE);
}

/** A string field of the body, when the body is an object that has one. */
function bodyString(body: unknown, field: string): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value.slice(0, MAX_VALUE) : null;
}

/** The client's session from the first session header that has one; null without any (the usual call). */
function sessionHeader(headers: IncomingHttpHeaders): string | null {
  for (const name of SESSION_HEADERS) {
    const value = header(headers, name);
    if (value !== null) return value;
  }
  return null;
}

/** The allow-listed `anthropic-*` headers; the one shared empty object when the client sent none. */
function forwardedHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>> {
  let forward: Record<string, string> | null = null;
  for (const name of FORWARDED_ANTHROPIC_HEADERS) {
    const raw = headers[name];
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    if (value.length <= 4096) (forward ??= {})[name] = value;
  }
  return forward ?? UNKNOWN_CALLER.forwardHeaders;
}

export function callerOf(headers: IncomingHttpHeaders, body: unknown): CallerInfo {
  // A body's own session (chat `session_id`, Responses `prompt_cache_key` as Codex sets it).
  const sessionId = sessionHeader(headers) ?? bodyString(body, 'session_id') ?? bodyString(body, 'prompt_cache_key');
  return {
    userAgent: header(headers, 'user-agent'),
    sessionId,
    origin: header(headers, 'origin') ?? header(headers, 'http-referer') ?? header(headers, 'referer'),
    forwardHeaders: forwardedHeaders(headers),
  };
}
