import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The test credentials the fake clouds know. None of them is real; each is distinctive enough
 * that a test can assert it never shows up in an error or a log line.
 */
export const AWS_TEST = {
  accessKeyId: 'AKIAFAKECLOUDTEST001',
  secretAccessKey: 'fake/Secret+Key/For/SigV4/Tests/0000000001',
  region: 'us-east-1',
  /** A Bedrock API key (sent as a bearer token instead of signing). */
  bedrockApiKey: 'ABSKQmVkcm9ja0FQSUtleS1mYWtlLWNsb3VkLXRlc3Qta2V5LTAwMDE=',
} as const;

export const AZURE_TEST = {
  apiKey: 'fakeazurekey0123456789abcdef0001',
  tenantId: '00000000-0000-4000-8000-00000000fa4e',
  clientId: '11111111-1111-4111-8111-1111111111c1',
  clientSecret: 'fake~entra~client~secret~0001',
  scope: 'https://cognitiveservices.azure.com/.default',
  /** The authority host the tests give @azure/identity (MSAL insists on https; a test transport maps it to the fake). */
  authorityHost: 'https://login.fake-entra.test',
} as const;

export const GEMINI_TEST = { apiKey: 'AIzaFakeGeminiTestKey0000000000000000001' } as const;

export const GOOGLE_TEST = {
  project: 'fake-project-1',
  clientEmail: 'switchyard-test@fake-project-1.iam.gserviceaccount.com',
  privateKeyId: 'fakekeyid0001',
} as const;

export interface ServiceAccountKey {
  privateKeyPem: string;
  publicKey: KeyObject;
}

let serviceAccountKey: ServiceAccountKey | null = null;

/** The test service account's RSA key pair (generated once per process). */
export function testServiceAccountKey(): ServiceAccountKey {
  if (serviceAccountKey === null) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    serviceAccountKey = { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
  }
  return serviceAccountKey;
}

/** The service-account JSON Google issues, pointing `token_uri` at the given URL. */
export function serviceAccountJson(tokenUri: string): Record<string, string> {
  return {
    type: 'service_account',
    project_id: GOOGLE_TEST.project,
    private_key_id: GOOGLE_TEST.privateKeyId,
    private_key: testServiceAccountKey().privateKeyPem,
    client_email: GOOGLE_TEST.clientEmail,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
    universe_domain: 'googleapis.com',
  };
}

/** Temp dirs of the service-account files this process wrote: removed when it exits. */
const serviceAccountDirs: string[] = [];
process.once('exit', () => {
  for (const dir of serviceAccountDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Writes the service-account file to a fresh temp dir (what GOOGLE_APPLICATION_CREDENTIALS names);
 * the gateway may read it at any time while the process runs, so the dir goes when the process exits.
 */
export function writeServiceAccountFile(tokenUri: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fake-sa-'));
  serviceAccountDirs.push(dir);
  const path = join(dir, 'service-account.json');
  writeFileSync(path, JSON.stringify(serviceAccountJson(tokenUri)), { mode: 0o600 });
  return path;
}
