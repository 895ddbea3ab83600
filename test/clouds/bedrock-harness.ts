import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AWS_TEST, startFakeBedrock, type FakeBedrock } from '../fake-clouds/index.js';
import { startGateway } from '../support/gateway.js';
import type { TestDialect, TestServer } from '../support/server.js';

/** A Claude model on Bedrock by its cross-region inference profile, as teams configure it. */
export const CLAUDE_ID = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
export const NOVA_ID = 'amazon.nova-pro-v1:0';
export const TITAN_ID = 'amazon.titan-embed-text-v2:0';
export const COHERE_ID = 'cohere.embed-english-v3';

export const BEDROCK_PRICES = {
  signed: { prompt: 0.000003, completion: 0.000015, input_cache_read: 0.0000003, input_cache_write: 0.00000375 },
  apiKey: { prompt: 0.000004, completion: 0.00002 },
  nova: { prompt: 0.0000008, completion: 0.0000032 },
  embed: { prompt: 0.0000001, completion: 0 },
};

/** The environment variable the API-key provider reads, and the shared profile the third one names. */
export const API_KEY_ENV = 'SWITCHYARD_TEST_BEDROCK_API_KEY';
export const PROFILE = 'switchyard-bedrock-test';
/** The profile's own access key, so a test can tell which credentials signed a request. */
export const PROFILE_KEY = { accessKeyId: 'AKIAFAKEPROFILE00001', secretAccessKey: 'fake/profile/secret/0001' };

/**
 * Three Bedrock providers on one fake: `bedrock-signed` (SigV4, keys from the environment: the
 * default chain), `bedrock-key` (a Bedrock API key as bearer; the pricier fallback) and
 * `bedrock-profile` (SigV4, keys from a named profile of a shared credentials file).
 */
export function bedrockCatalog(fakeUrl: string): Record<string, unknown> {
  const fast = { connect_ms: 2000, first_byte_ms: 5000, idle_ms: 5000 };
  return {
    providers: [
      {
        id: 'bedrock-signed',
        name: 'Bedrock (signed)',
        kind: 'bedrock',
        region: AWS_TEST.region,
        base_url: fakeUrl,
        timeouts: fast,
      },
      {
        id: 'bedrock-key',
        name: 'Bedrock (API key)',
        kind: 'bedrock',
        base_url: fakeUrl,
        api_key_env: API_KEY_ENV,
        timeouts: fast,
      },
      // A profile the shared files do not have: its credentials can never be resolved.
      { id: 'bedrock-noprofile', kind: 'bedrock', region: AWS_TEST.region, profile: 'missing', base_url: fakeUrl },
      {
        id: 'bedrock-profile',
        kind: 'bedrock',
        region: AWS_TEST.region,
        profile: PROFILE,
        base_url: fakeUrl,
        timeouts: fast,
      },
    ],
    models: [
      {
        slug: 'anthropic/claude-sonnet-4.5',
        context_length: 200000,
        endpoints: [
          { provider: 'bedrock-signed', upstream_model: CLAUDE_ID, pricing: BEDROCK_PRICES.signed },
          { provider: 'bedrock-key', upstream_model: CLAUDE_ID, pricing: BEDROCK_PRICES.apiKey },
        ],
      },
      {
        slug: 'amazon/nova-pro',
        context_length: 300000,
        endpoints: [{ provider: 'bedrock-profile', upstream_model: NOVA_ID, pricing: BEDROCK_PRICES.nova }],
      },
      {
        slug: 'amazon/nova-lite',
        context_length: 300000,
        endpoints: [
          { provider: 'bedrock-noprofile', upstream_model: 'amazon.nova-lite-v1:0', pricing: BEDROCK_PRICES.nova },
          { provider: 'bedrock-key', upstream_model: 'amazon.nova-lite-v1:0', pricing: BEDROCK_PRICES.apiKey },
        ],
      },
      {
        slug: 'amazon/titan-embed-text-v2',
        serves: ['embeddings'],
        context_length: 8192,
        endpoints: [{ provider: 'bedrock-profile', upstream_model: TITAN_ID, pricing: BEDROCK_PRICES.embed }],
      },
      {
        slug: 'cohere/embed-english-v3',
        serves: ['embeddings'],
        context_length: 8192,
        endpoints: [{ provider: 'bedrock-signed', upstream_model: COHERE_ID, pricing: BEDROCK_PRICES.embed }],
      },
    ],
  };
}

export interface BedrockGateway {
  server: TestServer;
  fake: FakeBedrock;
  apiKey: string;
  close(): Promise<void>;
}

/**
 * The fake Bedrock and the real server over it. The AWS credentials are the process's own
 * environment (what the AWS SDK's default chain reads) and a shared credentials file with a
 * named profile; the fake refuses any request whose signature or API key is not the test one.
 */
export async function startBedrockGateway(dialect: TestDialect): Promise<BedrockGateway> {
  const fake = await startFakeBedrock({
    keys: [{ accessKeyId: AWS_TEST.accessKeyId, secretAccessKey: AWS_TEST.secretAccessKey }, PROFILE_KEY],
  });
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bedrock-'));
  const credentials = join(dir, 'credentials');
  writeFileSync(
    credentials,
    `[${PROFILE}]\naws_access_key_id = ${PROFILE_KEY.accessKeyId}\naws_secret_access_key = ${PROFILE_KEY.secretAccessKey}\n`,
    { mode: 0o600 },
  );
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: AWS_TEST.accessKeyId,
    AWS_SECRET_ACCESS_KEY: AWS_TEST.secretAccessKey,
    AWS_SHARED_CREDENTIALS_FILE: credentials,
    AWS_CONFIG_FILE: join(dir, 'config'),
    AWS_EC2_METADATA_DISABLED: 'true',
    [API_KEY_ENV]: AWS_TEST.bedrockApiKey,
  });
  // The gateway harness's own fake upstream stays unused: every endpoint of this catalog is Bedrock.
  const gw = await startGateway({ dialect, catalog: () => bedrockCatalog(fake.url) });
  return {
    server: gw.server,
    fake,
    apiKey: gw.apiKey,
    close: async () => {
      await gw.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
