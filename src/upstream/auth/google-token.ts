import { createSign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { GoogleAuth } from 'google-auth-library';
import type { Expiring } from './credential-cache.js';
import { tokenSourceAuth } from './token-source.js';
import type { UpstreamAuth } from './types.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const TOKEN_TIMEOUT_MS = 10_000;

export interface GoogleTokenOptions {
  providerId: string;
  scopes?: string[];
  /** A key file; default `GOOGLE_APPLICATION_CREDENTIALS`. Without one, Application Default Credentials. */
  keyFile?: string | null;
  /** The ADC client to use when there is no service-account file (workload identity, metadata server). */
  googleAuth?: GoogleAuth;
  refreshBeforeMs?: number;
  retryMs?: number;
}

interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/**
 * Google access tokens for Vertex AI, cached and refreshed in the background. A service-account
 * key file is exchanged (JWT-bearer grant, RS256) at the file's own `token_uri`, which
 * google-auth-library of this generation replaces by Google's fixed URL; every other credential
 * (workload identity federation, the GCE/GKE metadata server, user credentials) goes through
 * google-auth-library's Application Default Credentials.
 */
export function googleTokenAuth(options: GoogleTokenOptions): UpstreamAuth {
  const scopes = options.scopes ?? [CLOUD_PLATFORM_SCOPE];
  const keyFile =
    options.keyFile === undefined ? (process.env.GOOGLE_APPLICATION_CREDENTIALS ?? null) : options.keyFile;
  let privateKey: string | null = null;
  let adc: GoogleAuth | null = options.googleAuth ?? null;
  const fetchToken = async (): Promise<Expiring<string>> => {
    const account = keyFile === null ? null : await readServiceAccount(keyFile);
    if (account !== null) {
      privateKey = account.private_key;
      return exchangeServiceAccountJwt(account, scopes);
    }
    // Loaded on first use: most deployments never ask Google for a token.
    adc ??= new (await import('google-auth-library')).GoogleAuth(keyFile === null ? { scopes } : { scopes, keyFile });
    const client = await adc.getClient();
    const { token } = await client.getAccessToken();
    if (typeof token !== 'string' || token === '')
      throw new Error('Application Default Credentials returned no access token');
    const expiry = client.credentials.expiry_date;
    return { value: token, expiresAtMs: typeof expiry === 'number' ? expiry : Date.now() + 30 * 60_000 };
  };
  return tokenSourceAuth({
    providerId: options.providerId,
    issuer: 'Google',
    fetch: fetchToken,
    secrets: () => [privateKey],
    refreshBeforeMs: options.refreshBeforeMs,
    retryMs: options.retryMs,
  });
}

/** The key file when it is a service account's; null for any other credential type. */
async function readServiceAccount(path: string): Promise<ServiceAccount | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(
      typeof code === 'string' ? `cannot read the credentials file (${code})` : 'the credentials file is not JSON',
      {
        cause: error,
      },
    );
  }
  const file = parsed as Record<string, unknown>;
  if (file.type !== 'service_account') return null;
  if (typeof file.client_email !== 'string' || typeof file.private_key !== 'string') {
    throw new Error('the service-account file lacks client_email or private_key');
  }
  return file as unknown as ServiceAccount;
}

async function exchangeServiceAccountJwt(account: ServiceAccount, scopes: string[]): Promise<Expiring<string>> {
  const tokenUri = account.token_uri ?? DEFAULT_TOKEN_URI;
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = {
    alg: 'RS256',
    typ: 'JWT',
    ...(account.private_key_id === undefined ? {} : { kid: account.private_key_id }),
  };
  const unsigned = `${encode(head)}.${encode({ iss: account.client_email, scope: scopes.join(' '), aud: tokenUri, iat: now, exp: now + 3600 })}`;
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(account.private_key).toString('base64url');
  } catch {
    throw new Error(`the private key of ${account.client_email} cannot sign`);
  }
  const response = await fetch(tokenUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: JWT_BEARER, assertion: `${unsigned}.${signature}` }),
    signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const reason = [body.error, body.error_description].filter((v) => typeof v === 'string').join(': ');
    throw new Error(
      `the token endpoint refused ${account.client_email} (HTTP ${response.status}${reason === '' ? '' : ` ${reason}`})`,
    );
  }
  if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
    throw new Error('the token endpoint answered without access_token or expires_in');
  }
  return { value: body.access_token, expiresAtMs: Date.now() + body.expires_in * 1000 };
}
