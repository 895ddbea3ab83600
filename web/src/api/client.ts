// The one way the console talks to the gateway: same-origin requests that carry the session cookie
// (HttpOnly, so JavaScript never sees it) and the anti-CSRF header, with errors parsed from the
// gateway's envelope `{"error":{"code","message","metadata"}}`.

export const API_BASE = '/api/v1';

/** An answer that was not 2xx, with the envelope's fields. */
export class ApiError extends Error {
  readonly status: number;
  readonly metadata: Record<string, unknown> | null;

  constructor(status: number, message: string, metadata: Record<string, unknown> | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.metadata = metadata;
  }

  /** The body field a 400 names (`error.metadata.field`), if any. */
  get field(): string | null {
    const f = this.metadata?.['field'];
    return typeof f === 'string' ? f : null;
  }
}

// The anti-CSRF token lives in memory only: it is handed out by the sign-in answer and the
// session probe, and is useless without the HttpOnly cookie.
let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when any request answers 401: the session ended (sign-out, expiry, key rotated). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Extra headers (e.g. Authorization for a playground call with a pasted API key). */
  headers?: Record<string, string>;
  /** Do not treat a 401 as "session ended" (sign-in itself, calls made with another key). */
  ignoreUnauthorized?: boolean;
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs === '' ? '' : `?${qs}`}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Turns a non-2xx answer into an ApiError with the envelope's message (or the status text). */
export async function errorFrom(res: Response): Promise<ApiError> {
  let message = `${res.status} ${res.statusText}`.trim();
  let metadata: Record<string, unknown> | null = null;
  try {
    const body: unknown = await res.json();
    const err = isRecord(body) ? body['error'] : undefined;
    if (isRecord(err)) {
      if (typeof err['message'] === 'string') message = err['message'];
      if (isRecord(err['metadata'])) metadata = err['metadata'];
    }
  } catch {
    // Not JSON (a proxy's error page): the status line is the best message there is.
  }
  return new ApiError(res.status, message, metadata);
}

/** Sends one request and returns the raw Response once it is 2xx (used for streams). */
export async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (csrfToken !== null && options.headers?.['authorization'] === undefined) headers['x-csrf-token'] = csrfToken;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: 'same-origin',
      cache: 'no-store',
      signal: options.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'The gateway could not be reached. Check that it is running.', null);
  }
  if (!res.ok) {
    const err = await errorFrom(res);
    if (res.status === 401 && options.ignoreUnauthorized !== true) onUnauthorized?.();
    throw err;
  }
  return res;
}

/** JSON request → parsed JSON answer (typed by the caller; the gateway's schemas are the contract). */
export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const res = await send(method, path, options);
  const text = await res.text();
  return (text === '' ? null : JSON.parse(text)) as T;
}

export const get = <T>(path: string, options?: RequestOptions): Promise<T> => api<T>('GET', path, options);
export const post = <T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> =>
  api<T>('POST', path, { ...options, body: body ?? {} });
export const patch = <T>(path: string, body: unknown, options?: RequestOptions): Promise<T> =>
  api<T>('PATCH', path, { ...options, body });
export const del = <T>(path: string, options?: RequestOptions): Promise<T> => api<T>('DELETE', path, options);

export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
