import { timingSafeEqual } from 'node:crypto';
import { AZURE_TEST } from './credentials.js';
import { sendJson, startCloudServer, type CloudFake } from './kit.js';
import { TokenLedger } from './token-ledger.js';

/** The audience of the Azure OpenAI tokens (the scope without `/.default`). */
export const COGNITIVE_AUDIENCE = 'https://cognitiveservices.azure.com';

export interface FakeEntra extends CloudFake {
  ledger: TokenLedger;
}

/** The `IDENTITY_HEADER` secret of the fake managed-identity endpoint. */
export const MANAGED_IDENTITY_HEADER = 'fake-identity-header-0001';

/** Where the fake serves App Service managed identity (what `IDENTITY_ENDPOINT` names). */
export const MANAGED_IDENTITY_PATH = '/msi/token';

/**
 * A fake Microsoft Entra ID: the tenant's OpenID configuration (which MSAL reads first) and
 * `POST /{tenant}/oauth2/v2.0/token` with the client-credentials grant of the test app
 * (client secret checked; scope must be `<resource>/.default`). Errors carry AADSTS codes.
 * Also App Service managed identity (`GET /msi/token?api-version=2019-08-01&resource=…` with the
 * `x-identity-header` secret), which @azure/identity's ManagedIdentityCredential calls when
 * `IDENTITY_ENDPOINT` and `IDENTITY_HEADER` are set: plain http on loopback, so a gateway under
 * test reaches this fake through its unmodified credential chain.
 */
export async function startFakeEntra(): Promise<FakeEntra> {
  const ledger = new TokenLedger('eyJ0eXAiOiJKV1QiLCJmYWtlIjoiZW50cmEifQ.');
  const host = AZURE_TEST.authorityHost;
  const fake = await startCloudServer(async ({ request, res }) => {
    const tenant = AZURE_TEST.tenantId;
    if (request.method === 'GET' && request.path === `/${tenant}/v2.0/.well-known/openid-configuration`) {
      sendJson(res, 200, {
        token_endpoint: `${host}/${tenant}/oauth2/v2.0/token`,
        authorization_endpoint: `${host}/${tenant}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${host}/${tenant}/oauth2/v2.0/logout`,
        issuer: `${host}/${tenant}/v2.0`,
        jwks_uri: `${host}/${tenant}/discovery/v2.0/keys`,
        response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      });
      return;
    }
    if (request.method === 'GET' && request.path === MANAGED_IDENTITY_PATH) {
      managedIdentityToken(request.query, request.headers['x-identity-header'], res, ledger);
      return;
    }
    if (request.method !== 'POST' || request.path !== `/${tenant}/oauth2/v2.0/token`) {
      aadError(res, 400, 'invalid_request', 90002, `Tenant or path not found: ${request.path}`);
      return;
    }
    const form = new URLSearchParams(request.raw.toString('utf8'));
    if (form.get('grant_type') !== 'client_credentials') {
      aadError(res, 400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
      return;
    }
    if (form.get('client_id') !== AZURE_TEST.clientId) {
      aadError(
        res,
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${form.get('client_id') ?? ''}' was not found in the directory.`,
      );
      return;
    }
    if (!sameSecret(form.get('client_secret') ?? '', AZURE_TEST.clientSecret)) {
      aadError(
        res,
        401,
        'invalid_client',
        7000215,
        'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
      );
      return;
    }
    const scope = form.get('scope') ?? '';
    if (!scope.endsWith('/.default')) {
      aadError(
        res,
        400,
        'invalid_scope',
        1002012,
        `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier.`,
      );
      return;
    }
    if (ledger.shouldFail()) {
      aadError(res, 503, 'temporarily_unavailable', 90033, 'A transient error has occurred. Please try again.');
      return;
    }
    const { token, expiresIn } = ledger.issue(scope.slice(0, -'/.default'.length));
    sendJson(res, 200, { token_type: 'Bearer', expires_in: expiresIn, ext_expires_in: expiresIn, access_token: token });
  });
  return { ...fake, ledger };
}

function managedIdentityToken(
  query: URLSearchParams,
  secret: string | string[] | undefined,
  res: Parameters<typeof sendJson>[0],
  ledger: TokenLedger,
): void {
  if (typeof secret !== 'string' || !sameSecret(secret, MANAGED_IDENTITY_HEADER)) {
    sendJson(res, 401, { statusCode: 401, message: 'Unauthorized: the identity header is missing or wrong' });
    return;
  }
  const resource = query.get('resource');
  if (query.get('api-version') !== '2019-08-01' || resource === null) {
    sendJson(res, 400, { statusCode: 400, message: 'api-version 2019-08-01 and resource are required' });
    return;
  }
  if (ledger.shouldFail()) {
    sendJson(res, 500, { statusCode: 500, message: 'A transient error has occurred.' });
    return;
  }
  const { token, expiresIn } = ledger.issue(resource);
  sendJson(res, 200, {
    access_token: token,
    expires_on: String(Math.floor(Date.now() / 1000) + expiresIn),
    resource,
    token_type: 'Bearer',
    client_id: AZURE_TEST.clientId,
  });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function aadError(
  res: Parameters<typeof sendJson>[0],
  status: number,
  error: string,
  code: number,
  text: string,
): void {
  sendJson(res, status, {
    error,
    error_description: `AADSTS${code}: ${text} Trace ID: 00000000-0000-0000-0000-000000000000 Correlation ID: 00000000-0000-0000-0000-000000000001 Timestamp: ${new Date().toISOString()}`,
    error_codes: [code],
    timestamp: new Date().toISOString(),
    trace_id: '00000000-0000-0000-0000-000000000000',
    correlation_id: '00000000-0000-0000-0000-000000000001',
  });
}
