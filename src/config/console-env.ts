import { keySignInEnabled, loadOidcConfig, OidcConfigError, type OidcConfig } from './oidc-env.js';

/** The web console's settings, read once at start from the environment (see README). */
export interface ConsoleConfig {
  /** Directory of the built console (`web/dist`); null: the default next to the package. */
  dir: string | null;
  /** `Secure` on the session cookie: always, never, or when the request came over HTTPS. */
  cookieSecure: 'auto' | 'true' | 'false';
  /** A session unused this long has ended. */
  sessionIdleMs: number;
  /** Failed sign-ins per client address allowed within `signInWindowMs` before 429. */
  signInMaxFailures: number;
  signInWindowMs: number;
  /** Single sign-on (OpenID Connect); null: off. */
  oidc: OidcConfig | null;
  /** Management-key sign-in (break-glass): on unless switched off. */
  keySignIn: boolean;
}

export class ConsoleConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ConsoleConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

export function loadConsoleConfig(env: NodeJS.ProcessEnv): ConsoleConfig {
  const secure = (env.SWITCHYARD_CONSOLE_COOKIE_SECURE ?? 'auto').trim().toLowerCase() || 'auto';
  if (secure !== 'auto' && secure !== 'true' && secure !== 'false')
    throw new ConsoleConfigError('SWITCHYARD_CONSOLE_COOKIE_SECURE must be auto, true or false');
  let oidc: OidcConfig | null;
  let keySignIn: boolean;
  try {
    oidc = loadOidcConfig(env);
    keySignIn = keySignInEnabled(env);
  } catch (error) {
    throw error instanceof OidcConfigError ? new ConsoleConfigError(error.message) : error;
  }
  if (!keySignIn && oidc === null)
    throw new ConsoleConfigError('SWITCHYARD_CONSOLE_KEY_SIGN_IN=false needs single sign-on (SWITCHYARD_OIDC_ISSUER)');
  return {
    oidc,
    keySignIn,
    dir: env.SWITCHYARD_CONSOLE_DIR || null,
    cookieSecure: secure,
    sessionIdleMs: integer(env, 'SWITCHYARD_CONSOLE_SESSION_IDLE_MS', 12 * 3_600_000, 1000, 30 * 86_400_000),
    signInMaxFailures: integer(env, 'SWITCHYARD_CONSOLE_SIGNIN_MAX_FAILURES', 10, 1, 1_000_000),
    signInWindowMs: integer(env, 'SWITCHYARD_CONSOLE_SIGNIN_WINDOW_MS', 15 * 60_000, 1000, 86_400_000),
  };
}
