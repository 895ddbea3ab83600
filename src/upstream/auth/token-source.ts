import { CredentialCache, type Expiring } from './credential-cache.js';
import { credentialError, describe } from './credential-error.js';
import type { UpstreamAuth } from './types.js';

export interface TokenSourceOptions {
  providerId: string;
  /** Who issues the token, for error messages ("Google", "Microsoft Entra ID"). */
  issuer: string;
  fetch: () => Promise<Expiring<string>>;
  /** Secrets to scrub from any error message (a client secret, a private key), read when an error is built. */
  secrets?: () => readonly (string | null | undefined)[];
  refreshBeforeMs?: number;
  retryMs?: number;
}

/** A bearer-token `UpstreamAuth` over a CredentialCache: synchronous while a token is held. */
export function tokenSourceAuth(options: TokenSourceOptions): UpstreamAuth {
  const cache = new CredentialCache<string>({
    fetch: options.fetch,
    failure: (error) =>
      credentialError({
        providerId: options.providerId,
        problem: `${options.issuer} token: ${describe(error)}`,
        secrets: options.secrets?.(),
      }),
    refreshBeforeMs: options.refreshBeforeMs,
    retryMs: options.retryMs,
  });
  const headers = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
  return {
    headersFor: () => {
      const token = cache.get();
      return typeof token === 'string' ? headers(token) : token.then(headers);
    },
    start: () => cache.start(),
    close: () => cache.close(),
  };
}
