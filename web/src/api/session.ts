// Console sessions: the management key is sent once, in the sign-in request body, and exchanged
// for an HttpOnly session cookie. The key is never written to localStorage, sessionStorage or a
// cookie JavaScript can read; only the anti-CSRF token is kept, in memory.
import { ApiError, get, post, del, setCsrfToken } from './client.js';

export const SESSION_PATH = '/console/session';

export interface SessionInfo {
  csrf_token: string;
  expires_at: string | null;
  /** The management key behind the session (never its token). */
  key: { hash: string; name: string; label: string; workspace_id: string } | null;
  /** The member behind a single sign-on session, with the console roles they hold. */
  person: SessionPerson | null;
}

export interface SessionPerson {
  member_id: string;
  email: string;
  name: string | null;
  org_role: 'owner' | 'admin' | null;
  default_workspace_id: string;
  workspace_roles: { workspace_id: string; role: 'admin' | 'member' | 'viewer' }[];
}

/** Which sign-in methods the server offers (single sign-on, the management key). */
export async function signInMethods(): Promise<{ sso: boolean; key_sign_in: boolean }> {
  try {
    const res = await get<{ data: { sso: boolean; key_sign_in: boolean } }>('/console/auth', {
      ignoreUnauthorized: true,
    });
    return res.data;
  } catch {
    // An older server without the route: the management key only.
    return { sso: false, key_sign_in: true };
  }
}

/** Exchanges the management key for a session; throws ApiError (401 wrong key, 429 throttled). */
export async function signIn(key: string): Promise<SessionInfo> {
  const res = await post<{ data?: SessionInfo } & Partial<SessionInfo>>(
    SESSION_PATH,
    { key },
    { ignoreUnauthorized: true },
  );
  const info = unwrap(res);
  setCsrfToken(info.csrf_token);
  return info;
}

/** The current session (after a reload the cookie is still there), or null when signed out. */
export async function currentSession(): Promise<SessionInfo | null> {
  try {
    const res = await get<{ data?: SessionInfo } & Partial<SessionInfo>>(SESSION_PATH, { ignoreUnauthorized: true });
    const info = unwrap(res);
    setCsrfToken(info.csrf_token);
    return info;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 404)) return null;
    throw e;
  }
}

export async function signOut(): Promise<void> {
  try {
    await del(SESSION_PATH, { ignoreUnauthorized: true });
  } finally {
    setCsrfToken(null);
  }
}

function unwrap(res: { data?: SessionInfo } & Partial<SessionInfo>): SessionInfo {
  const info = res.data ?? res;
  if (typeof info.csrf_token !== 'string') throw new ApiError(500, 'The sign-in answer carried no CSRF token', null);
  return {
    csrf_token: info.csrf_token,
    expires_at: info.expires_at ?? null,
    key: info.key ?? null,
    person: info.person ?? null,
  };
}
