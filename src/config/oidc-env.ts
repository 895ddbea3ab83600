import type { GrantedRole } from '../domain/console/sso.js';

export type { GrantedRole };

/** Single sign-on with OpenID Connect (authorization code + PKCE), read once at start. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE only, no client authentication). */
  clientSecret: string | null;
  /** The full redirect URL; null: derived from each request (`<proto>://<host>/console/auth/callback`). */
  redirectUrl: string | null;
  scopes: string;
  /** Lower-case email domains allowed to sign in; empty: any. */
  allowedDomains: string[];
  groupsClaim: string;
  /** IdP group → the roles it grants. */
  roleMap: Map<string, GrantedRole[]>;
  /** Create a member on first sign-in (else an unknown email is refused), with `defaultRole`. */
  provision: boolean;
  defaultRole: GrantedRole;
}

export class OidcConfigError extends Error {}

/** `org:owner`, `org:admin`, or `<workspace slug>:<admin|member|viewer>`. */
export function parseGrantedRole(text: string, where: string): GrantedRole {
  const value = text.trim();
  if (value === 'org:owner') return { org: 'owner' };
  if (value === 'org:admin') return { org: 'admin' };
  const colon = value.lastIndexOf(':');
  const workspace = value.slice(0, colon);
  const role = value.slice(colon + 1);
  if (colon <= 0 || (role !== 'admin' && role !== 'member' && role !== 'viewer'))
    throw new OidcConfigError(
      `${where}: "${value}" is not a role (org:owner, org:admin, or <workspace slug>:admin|member|viewer)`,
    );
  return { workspace, role };
}

/** `group=role` pairs separated by `;` or newlines; a group may be listed more than once. */
function parseRoleMap(raw: string): Map<string, GrantedRole[]> {
  const map = new Map<string, GrantedRole[]>();
  for (const entry of raw.split(/[;\n]/)) {
    if (entry.trim() === '') continue;
    const eq = entry.lastIndexOf('=');
    const group = entry.slice(0, eq).trim();
    if (eq <= 0 || group === '')
      throw new OidcConfigError(`SWITCHYARD_OIDC_ROLE_MAP: "${entry.trim()}" is not group=role`);
    map.set(group, [...(map.get(group) ?? []), parseGrantedRole(entry.slice(eq + 1), 'SWITCHYARD_OIDC_ROLE_MAP')]);
  }
  return map;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  if (raw === 'false' || raw === '0' || raw === 'no') return false;
  throw new OidcConfigError(`${name} must be true or false`);
}

/** Whether the management key may still sign in to the console (break-glass; default on). */
export const keySignInEnabled = (env: NodeJS.ProcessEnv): boolean => bool(env, 'SWITCHYARD_CONSOLE_KEY_SIGN_IN', true);

/** null when `SWITCHYARD_OIDC_ISSUER` is unset (single sign-on off). */
export function loadOidcConfig(env: NodeJS.ProcessEnv): OidcConfig | null {
  const issuer = env.SWITCHYARD_OIDC_ISSUER?.trim() ?? '';
  if (issuer === '') return null;
  if (!URL.canParse(issuer)) throw new OidcConfigError('SWITCHYARD_OIDC_ISSUER must be a URL');
  const clientId = env.SWITCHYARD_OIDC_CLIENT_ID?.trim() ?? '';
  if (clientId === '') throw new OidcConfigError('SWITCHYARD_OIDC_CLIENT_ID is required with SWITCHYARD_OIDC_ISSUER');
  const redirectUrl = env.SWITCHYARD_OIDC_REDIRECT_URL?.trim() || null;
  if (redirectUrl !== null && !URL.canParse(redirectUrl))
    throw new OidcConfigError('SWITCHYARD_OIDC_REDIRECT_URL must be a URL');
  return {
    issuer,
    clientId,
    clientSecret: env.SWITCHYARD_OIDC_CLIENT_SECRET || null,
    redirectUrl,
    scopes: env.SWITCHYARD_OIDC_SCOPES?.trim() || 'openid email profile',
    allowedDomains: (env.SWITCHYARD_OIDC_ALLOWED_DOMAINS ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
      .filter((d) => d !== ''),
    groupsClaim: env.SWITCHYARD_OIDC_GROUPS_CLAIM?.trim() || 'groups',
    roleMap: parseRoleMap(env.SWITCHYARD_OIDC_ROLE_MAP ?? ''),
    provision: bool(env, 'SWITCHYARD_OIDC_PROVISION', false),
    defaultRole: parseGrantedRole(env.SWITCHYARD_OIDC_DEFAULT_ROLE || 'default:viewer', 'SWITCHYARD_OIDC_DEFAULT_ROLE'),
  };
}
