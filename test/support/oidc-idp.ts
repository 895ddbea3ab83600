// A real OpenID provider for the tests (oidc-provider), on a loopback port: one confidential
// client, users by login name, and its development login and consent pages.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IdpUser {
  email: string;
  email_verified: boolean;
  given_name?: string;
  groups?: string[];
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Creates the provider once the relying party's callback URL is known (discovery is lazy). */
  configure(redirectUri: string): void;
  close(): Promise<void>;
}

/** The gateway's settings for this IdP (add the test's own). */
export const ssoEnv = (idp: TestIdp, extra: Record<string, string> = {}): Record<string, string> => ({
  SWITCHYARD_OIDC_ISSUER: idp.issuer,
  SWITCHYARD_OIDC_CLIENT_ID: idp.clientId,
  SWITCHYARD_OIDC_CLIENT_SECRET: idp.clientSecret,
  ...extra,
});

export async function startIdp(users: Record<string, IdpUser>): Promise<TestIdp> {
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server = createServer((req, res) => {
    if (handle === null) {
      res.statusCode = 503;
      res.end();
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'switchyard-console';
  const clientSecret = 'test-client-secret-not-a-real-one';
  return {
    issuer,
    clientId,
    clientSecret,
    configure(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['given_name'],
          groups: ['groups'],
        },
        scopes: ['openid', 'email', 'profile', 'groups'],
        cookies: { keys: ['test-idp-cookie-key'] },
        features: { devInteractions: { enabled: true } },
        findAccount: (_ctx: unknown, id: string) => {
          const user = users[id];
          return user === undefined
            ? undefined
            : { accountId: id, claims: () => Promise.resolve({ sub: id, ...user }) };
        },
      });
      handle = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
