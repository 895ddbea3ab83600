import type { IncomingHttpHeaders } from 'node:http';
import type { CallerInfo } from '../gateway/caller.js';

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

export function callerOf(headers: IncomingHttpHeaders, body: unknown): CallerInfo {
  let sessionId: string | null = null;
  for (const name of SESSION_HEADERS) sessionId ??= header(headers, name);
  // A body's own session (chat `session_id`, Responses `prompt_cache_key` as Codex sets it).
  sessionId ??= bodyString(body, 'session_id') ?? bodyString(body, 'prompt_cache_key');
  const forwardHeaders: Record<string, string> = {};
  for (const name of FORWARDED_ANTHROPIC_HEADERS) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    if (value !== undefined && value.length <= 4096) forwardHeaders[name] = value;
  }
  return {
    userAgent: header(headers, 'user-agent'),
    sessionId,
    origin: header(headers, 'origin') ?? header(headers, 'http-referer') ?? header(headers, 'referer'),
    forwardHeaders,
  };
}
