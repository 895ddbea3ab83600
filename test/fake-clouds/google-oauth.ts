import { verify } from 'node:crypto';
import { GOOGLE_TEST, testServiceAccountKey } from './credentials.js';
import { header, sendJson, startCloudServer, type CloudFake } from './kit.js';
import { TokenLedger } from './token-ledger.js';

/** The audience of the tokens this endpoint issues (what the fake Vertex accepts). */
export const GOOGLE_CLOUD_AUDIENCE = 'https://www.googleapis.com/auth/cloud-platform';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface FakeGoogleOAuth extends CloudFake {
  /** What a service-account file's `token_uri` names to reach this fake. */
  tokenUri: string;
  /** The host:port for `GCE_METADATA_HOST` (the fake also serves the metadata server's token). */
  metadataHost: string;
  ledger: TokenLedger;
}

/**
 * A fake Google OAuth token endpoint, strict like the real one: `POST /token` with the JWT-bearer
 * grant of a service account (RS256 signature checked against the test service account's public
 * key; `aud` must be this endpoint or Google's own; at most an hour; not expired), and the GCE
 * metadata server's `GET /computeMetadata/v1/instance/service-accounts/default/token`
 * (`Metadata-Flavor: Google` required).
 */
export async function startFakeGoogleOAuth(): Promise<FakeGoogleOAuth> {
  const ledger = new TokenLedger('ya29.fake-');
  let tokenUri = '';
  const fake = await startCloudServer(async ({ request, res }) => {
    if (request.path.startsWith('/computeMetadata/v1')) {
      if (header(request.headers, 'metadata-flavor') !== 'Google') {
        res.writeHead(403, { 'content-type': 'text/html' }).end('Missing Metadata-Flavor:Google header.');
        return;
      }
      const flavor = { 'metadata-flavor': 'Google' };
      if (request.path === '/computeMetadata/v1/instance/service-accounts/default/token') {
        if (ledger.shouldFail()) {
          res.writeHead(503, { 'content-type': 'text/plain', ...flavor }).end('metadata server unavailable');
          return;
        }
        const { token, expiresIn } = ledger.issue(GOOGLE_CLOUD_AUDIENCE);
        sendJson(res, 200, { access_token: token, expires_in: expiresIn, token_type: 'Bearer' }, flavor);
        return;
      }
      if (request.path === '/computeMetadata/v1/project/project-id') {
        res.writeHead(200, { 'content-type': 'application/text', ...flavor }).end(GOOGLE_TEST.project);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/text', ...flavor }).end('');
      return;
    }
    if (request.method !== 'POST' || request.path !== '/token') {
      sendJson(res, 404, { error: 'not_found' });
      return;
    }
    const form = new URLSearchParams(request.raw.toString('utf8'));
    if (form.get('grant_type') !== JWT_BEARER) {
      sendJson(res, 400, {
        error: 'unsupported_grant_type',
        error_description: 'Invalid grant_type: ' + (form.get('grant_type') ?? ''),
      });
      return;
    }
    const problem = checkAssertion(form.get('assertion') ?? '', [tokenUri, GOOGLE_TOKEN_URL]);
    if (problem !== null) {
      sendJson(res, 400, { error: 'invalid_grant', error_description: problem });
      return;
    }
    if (ledger.shouldFail()) {
      sendJson(res, 500, { error: 'internal_failure', error_description: 'Backend Error' });
      return;
    }
    const { token, expiresIn } = ledger.issue(GOOGLE_CLOUD_AUDIENCE);
    sendJson(res, 200, { access_token: token, expires_in: expiresIn, token_type: 'Bearer' });
  });
  tokenUri = `${fake.url}/token`;
  return { ...fake, tokenUri, metadataHost: fake.url.replace('http://', ''), ledger };
}

/** Why the JWT assertion is refused (Google's own descriptions), or null when it is good. */
function checkAssertion(assertion: string, audiences: string[]): string | null {
  const parts = assertion.split('.');
  if (parts.length !== 3)
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  const [h, p, s] = parts as [string, string, string];
  let head: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    head = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return 'Invalid JWT: could not decode.';
  }
  if (head.alg !== 'RS256') return 'Invalid JWT: unsupported algorithm.';
  if (claims.iss !== GOOGLE_TEST.clientEmail) return 'Invalid JWT Signature.';
  const good = verify(
    'RSA-SHA256',
    Buffer.from(`${h}.${p}`),
    testServiceAccountKey().publicKey,
    Buffer.from(s, 'base64url'),
  );
  if (!good) return 'Invalid JWT Signature.';
  if (typeof claims.aud !== 'string' || !audiences.includes(claims.aud)) return 'Invalid JWT: Failed audience check.';
  const now = Math.floor(Date.now() / 1000);
  const iat = typeof claims.iat === 'number' ? claims.iat : NaN;
  const exp = typeof claims.exp === 'number' ? claims.exp : NaN;
  if (!(exp > now - 30) || !(iat <= now + 300) || exp - iat > 3600) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.';
  }
  if (typeof claims.scope !== 'string' && typeof claims.target_audience !== 'string') return 'Invalid JWT: no scope.';
  return null;
}
