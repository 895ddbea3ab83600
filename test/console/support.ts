import type { TestServer } from '../support/server.js';

/** A browser's view of one console session: the cookie jar and the anti-CSRF token. */
export interface Browser {
  cookie: string;
  csrf: string;
}

export interface ConsoleResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** Real HTTP with the session cookie (and the CSRF header unless `csrf` is false or given). */
export async function asBrowser<T = Record<string, unknown>>(
  server: Pick<TestServer, 'api'>,
  browser: Browser | null,
  method: string,
  path: string,
  options: { body?: unknown; csrf?: boolean | string; headers?: Record<string, string> } = {},
): Promise<ConsoleResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (browser !== null) {
    headers.cookie = browser.cookie;
    if (options.csrf !== false)
      headers['x-csrf-token'] = typeof options.csrf === 'string' ? options.csrf : browser.csrf;
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.api}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: the test reads the text.
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export interface SignIn {
  status: number;
  setCookie: string;
  browser: Browser;
  body: { data: { csrf_token: string; key: { hash: string }; expires_at: string; idle_timeout_ms: number } };
}

export async function signIn(server: Pick<TestServer, 'api'>, key: string, headers: Record<string, string> = {}) {
  const res = await asBrowser<SignIn['body']>(server, null, 'POST', '/console/session', { body: { key }, headers });
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0] ?? '';
  return {
    status: res.status,
    setCookie,
    browser: { cookie, csrf: res.status === 200 ? res.body.data.csrf_token : '' },
    body: res.body,
    headers: res.headers,
  };
}
