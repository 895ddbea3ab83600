import type * as Oidc from 'openid-client';
import type { OidcConfig } from '../../config/oidc-env.js';
import type { IdentityClaims } from '../../domain/console/sso.js';

/** The checks a sign-in started with, kept in the browser's short-lived HttpOnly cookie. */
export interface FlowChecks {
  state: string;
  nonce: string;
  verifier: string;
}

/** Loaded on first sign-in: most deployments never use single sign-on. */
const openidClient = (): Promise<typeof Oidc> => import('openid-client');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const claimString = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function groupsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  return typeof value === 'string' ? [value] : [];
}

/**
 * The relying party of single sign-on (authorization code + PKCE, `openid-client`). The IdP is
 * found by issuer discovery on first use and remembered; a failed discovery is retried on the
 * next sign-in. Plain-HTTP issuers are accepted on loopback addresses only (a local IdP).
 */
export class OidcClient {
  private configuration: Promise<Oidc.Configuration> | null = null;

  constructor(private readonly config: OidcConfig) {}

  private discover(): Promise<Oidc.Configuration> {
    if (this.configuration !== null) return this.configuration;
    const issuer = new URL(this.config.issuer);
    const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
    const secret = this.config.clientSecret;
    const found = openidClient().then((oidc) =>
      oidc.discovery(
        issuer,
        this.config.clientId,
        secret ?? undefined,
        secret === null ? oidc.None() : undefined,
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      ),
    );
    this.configuration = found;
    found.catch(() => {
      this.configuration = null;
    });
    return found;
  }

  /** The IdP's authorization URL for a new sign-in, and the checks to keep for the callback. */
  async start(redirectUri: string): Promise<{ url: string; checks: FlowChecks }> {
    const configuration = await this.discover();
    const oidc = await openidClient();
    const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.config.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url: url.href, checks };
  }

  /**
   * Exchanges the callback's code (state, nonce and PKCE verifier checked by `openid-client`) and
   * reads the person's claims from the ID token, completed by the userinfo endpoint.
   */
  async finish(callbackUrl: URL, checks: FlowChecks): Promise<IdentityClaims> {
    const configuration = await this.discover();
    const oidc = await openidClient();
    const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (idClaims === undefined) throw new Error('The identity provider returned no ID token');
    let claims: Record<string, unknown> = { ...idClaims };
    if (tokens.access_token !== '' && configuration.serverMetadata().userinfo_endpoint !== undefined) {
      const info = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      claims = { ...claims, ...info };
    }
    return {
      subject: idClaims.sub,
      email: claimString(claims.email),
      // Only an explicit `true` counts: an absent claim is not a verified address.
      emailVerified: claims.email_verified === true,
      givenName: claimString(claims.given_name),
      familyName: claimString(claims.family_name),
      groups: groupsOf(claims[this.config.groupsClaim]),
    };
  }
}
