import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AWS_TEST,
  GOOGLE_TEST,
  startFakeBedrock,
  startFakeGoogleOAuth,
  startFakeVertex,
  writeServiceAccountFile,
  type FakeBedrock,
  type FakeGoogleOAuth,
  type FakeVertex,
} from '../fake-clouds/index.js';
import type { FakeUpstream } from '../fake-upstream/index.js';
import { startGateway } from '../support/gateway.js';
import { call, type TestDialect, type TestServer } from '../support/server.js';
import { CLAUDE_ID } from './bedrock-harness.js';
import { VERTEX_CLAUDE } from './google-support.js';

/** The one catalog model, and the three providers that serve it. */
export const SLUG = 'anthropic/claude-sonnet-4.5';
export const BEDROCK = 'aws-bedrock';
export const VERTEX = 'google-vertex';
export const ANTHROPIC = 'anthropic-direct';
export const ANTHROPIC_MODEL = 'claude-sonnet-4-5-20250929';

/** Different prices per endpoint (USD per token): Bedrock cheapest, then Vertex, then Anthropic. */
export const CROSS_PRICES = {
  [BEDROCK]: { prompt: 0.000003, completion: 0.000015 },
  [VERTEX]: { prompt: 0.0000033, completion: 0.0000165 },
  [ANTHROPIC]: { prompt: 0.0000036, completion: 0.000018 },
} as const;

/** One Claude model on three clouds: Bedrock (SigV4), Vertex AI (Google OAuth) and Anthropic's API. */
export function crossCloudCatalog(urls: { anthropic: string; bedrock: string; vertex: string }) {
  const fast = { connect_ms: 2000, first_byte_ms: 5000, idle_ms: 5000 };
  return {
    providers: [
      {
        id: ANTHROPIC,
        name: 'Anthropic',
        kind: 'anthropic',
        base_url: `${urls.anthropic}/v1`,
        api_key: 'sk-ant-upstream-secret-000003',
        timeouts: fast,
      },
      {
        id: BEDROCK,
        name: 'Amazon Bedrock',
        kind: 'bedrock',
        region: AWS_TEST.region,
        base_url: urls.bedrock,
        timeouts: fast,
      },
      {
        id: VERTEX,
        name: 'Google Vertex',
        kind: 'vertex',
        base_url: urls.vertex,
        project: GOOGLE_TEST.project,
        location: 'us-east5',
        timeouts: fast,
      },
    ],
    models: [
      {
        slug: SLUG,
        context_length: 200000,
        // Listed priciest first: the order of the file is not what routing follows.
        endpoints: [
          { provider: ANTHROPIC, upstream_model: ANTHROPIC_MODEL, pricing: CROSS_PRICES[ANTHROPIC] },
          { provider: VERTEX, upstream_model: VERTEX_CLAUDE, pricing: CROSS_PRICES[VERTEX] },
          { provider: BEDROCK, upstream_model: CLAUDE_ID, pricing: CROSS_PRICES[BEDROCK] },
        ],
      },
    ],
  };
}

export type CloudId = typeof BEDROCK | typeof VERTEX | typeof ANTHROPIC;

export interface CrossCloudGateway {
  server: TestServer;
  /** The providers whose fake received a call, in arrival order (since the last reset). */
  arrivals: CloudId[];
  anthropic: FakeUpstream;
  bedrock: FakeBedrock;
  vertex: FakeVertex;
  oauth: FakeGoogleOAuth;
  apiKey: string;
  reset(): void;
  close(): Promise<void>;
}

const ENV_NAMES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_EC2_METADATA_DISABLED',
  'GOOGLE_APPLICATION_CREDENTIALS',
] as const;

/**
 * The three fakes and the real server over them. AWS keys come from the environment (the default
 * chain; the fake Bedrock verifies every SigV4 signature), Google's from a service-account file
 * whose `token_uri` is the fake OAuth endpoint (the fake Vertex accepts only its tokens).
 */
export async function startCrossCloudGateway(dialect: TestDialect): Promise<CrossCloudGateway> {
  const [bedrock, oauth] = await Promise.all([startFakeBedrock(), startFakeGoogleOAuth()]);
  const vertex = await startFakeVertex(oauth.ledger);
  const saved = new Map(ENV_NAMES.map((name) => [name, process.env[name]]));
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-xcloud-'));
  writeFileSync(join(dir, 'credentials'), '', { mode: 0o600 });
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: AWS_TEST.accessKeyId,
    AWS_SECRET_ACCESS_KEY: AWS_TEST.secretAccessKey,
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
    AWS_CONFIG_FILE: join(dir, 'config'),
    AWS_EC2_METADATA_DISABLED: 'true',
    GOOGLE_APPLICATION_CREDENTIALS: writeServiceAccountFile(oauth.tokenUri),
  });
  const gw = await startGateway({
    dialect,
    catalog: (anthropic) => crossCloudCatalog({ anthropic, bedrock: bedrock.url, vertex: vertex.url }),
  });
  const arrivals: CloudId[] = [];
  watch(bedrock.requests, BEDROCK, arrivals);
  watch(vertex.requests, VERTEX, arrivals);
  watch(gw.fake.requests, ANTHROPIC, arrivals);
  return {
    server: gw.server,
    arrivals,
    anthropic: gw.fake,
    bedrock,
    vertex,
    oauth,
    apiKey: gw.apiKey,
    reset: () => {
      arrivals.length = 0;
      gw.fake.reset();
      bedrock.reset();
      vertex.reset();
    },
    close: async () => {
      await gw.close();
      await Promise.all([bedrock.close(), vertex.close(), oauth.close()]);
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Notes each call a fake records, so the order across the three fakes is known. */
function watch<T>(requests: T[], who: CloudId, arrivals: CloudId[]): void {
  const push = requests.push.bind(requests);
  requests.push = (...items: T[]) => {
    for (const _ of items) arrivals.push(who);
    return push(...items);
  };
}

/** A new key with a guardrail that redacts e-mail addresses; returns the key. */
export async function redactingKey(server: TestServer): Promise<string> {
  const token = server.managementToken;
  const key = await call<{ key: string; data: { hash: string } }>(server, 'POST', '/keys', {
    token,
    body: { name: 'redacted' },
  });
  const g = await call<{ data: { id: string } }>(server, 'POST', '/guardrails', {
    token,
    body: { name: 'no-email', content_filter_builtins: [{ slug: 'email', action: 'redact' }] },
  });
  assert.equal(g.status, 201, JSON.stringify(g.body));
  await call(server, 'POST', `/guardrails/${g.body.data.id}/assignments/keys`, {
    token,
    body: { key_hashes: [key.body.data.hash] },
  });
  return key.body.key;
}
