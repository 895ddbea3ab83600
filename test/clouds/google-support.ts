import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GEMINI_TEST,
  GOOGLE_TEST,
  startFakeGemini,
  startFakeGoogleOAuth,
  startFakeVertex,
  writeServiceAccountFile,
  type FakeGemini,
  type FakeGoogleOAuth,
  type FakeVertex,
} from '../fake-clouds/index.js';
import { call, startTestServer, type TestDialect, type TestServer } from '../support/server.js';

/** Prices (USD per token) of the Google test catalog. */
export const GOOGLE_PRICES = {
  gemini: { prompt: 0.000001, completion: 0.000004, internal_reasoning: 0.000004 },
  vertex: { prompt: 0.000002, completion: 0.000008 },
  claude: { prompt: 0.000003, completion: 0.000015 },
  vertexEmbed: { prompt: 0.00000015, completion: 0 },
};

export const VERTEX_CLAUDE = 'publishers/anthropic/models/claude-sonnet-4-5@20250929';

/**
 * A catalog of the Google kinds at the fakes: `google/gemini-flash` on the Gemini API (cheaper)
 * and on Vertex AI (the fallback), Claude on Vertex, a Gemini API embedding model and two on Vertex AI.
 */
export function googleCatalog(fakes: { gemini: string; vertex: string }): Record<string, unknown> {
  const fast = { connect_ms: 2000, first_byte_ms: 5000, idle_ms: 5000 };
  return {
    providers: [
      {
        id: 'gemini',
        name: 'Google AI Studio',
        kind: 'gemini',
        base_url: `${fakes.gemini}/v1beta`,
        api_key_env: 'SWITCHYARD_TEST_GEMINI_KEY',
        timeouts: fast,
      },
      {
        id: 'vertex',
        name: 'Google Vertex',
        kind: 'vertex',
        base_url: fakes.vertex,
        project: GOOGLE_TEST.project,
        location: 'us-east5',
        timeouts: fast,
      },
    ],
    models: [
      {
        slug: 'google/gemini-flash',
        context_length: 1000000,
        input_modalities: ['text', 'image'],
        endpoints: [
          { provider: 'gemini', upstream_model: 'gemini-2.5-flash', pricing: GOOGLE_PRICES.gemini },
          { provider: 'vertex', upstream_model: 'gemini-2.5-flash', pricing: GOOGLE_PRICES.vertex },
        ],
      },
      {
        slug: 'anthropic/claude-sonnet-4.5',
        context_length: 200000,
        aliases: ['claude-sonnet-4-5-20250929'],
        endpoints: [{ provider: 'vertex', upstream_model: VERTEX_CLAUDE, pricing: GOOGLE_PRICES.claude }],
      },
      {
        slug: 'google/text-embedding-004',
        context_length: 2048,
        serves: ['embeddings'],
        endpoints: [
          { provider: 'gemini', upstream_model: 'text-embedding-004', pricing: { prompt: 1e-7, completion: 0 } },
        ],
      },
      {
        slug: 'google/text-embedding-005',
        context_length: 2048,
        serves: ['embeddings'],
        endpoints: [{ provider: 'vertex', upstream_model: 'text-embedding-005', pricing: GOOGLE_PRICES.vertexEmbed }],
      },
      {
        slug: 'google/gemini-embedding-001',
        context_length: 2048,
        serves: ['embeddings'],
        endpoints: [
          {
            provider: 'vertex',
            upstream_model: 'publishers/google/models/gemini-embedding-001',
            pricing: GOOGLE_PRICES.vertexEmbed,
          },
        ],
      },
    ],
  };
}

export interface GoogleHarness {
  server: TestServer;
  gemini: FakeGemini;
  vertex: FakeVertex;
  oauth: FakeGoogleOAuth;
  apiKey: string;
  reset(): void;
  close(): Promise<void>;
}

/**
 * The fakes (Gemini API, Vertex AI, Google's token endpoint), a service-account file whose
 * `token_uri` names the fake, and the real server with the Google catalog and one API key.
 */
export async function startGoogleGateway(dialect: TestDialect): Promise<GoogleHarness> {
  const [gemini, oauth] = await Promise.all([startFakeGemini(), startFakeGoogleOAuth()]);
  const vertex = await startFakeVertex(oauth.ledger);
  const saved = {
    key: process.env.SWITCHYARD_TEST_GEMINI_KEY,
    file: process.env.GOOGLE_APPLICATION_CREDENTIALS,
  };
  // The catalog reads the process environment when the server starts.
  process.env.SWITCHYARD_TEST_GEMINI_KEY = GEMINI_TEST.apiKey;
  process.env.GOOGLE_APPLICATION_CREDENTIALS = writeServiceAccountFile(oauth.tokenUri);
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-google-'));
  const configPath = join(dir, 'catalog.json');
  writeFileSync(configPath, JSON.stringify(googleCatalog({ gemini: gemini.url, vertex: vertex.url })));
  const server = await startTestServer({ dialect, env: { SWITCHYARD_CONFIG: configPath } });
  const created = await call<{ key: string }>(server, 'POST', '/keys', {
    token: server.managementToken,
    body: { name: 'google-clouds' },
  });
  const restore = (name: 'SWITCHYARD_TEST_GEMINI_KEY' | 'GOOGLE_APPLICATION_CREDENTIALS', value?: string) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  return {
    server,
    gemini,
    vertex,
    oauth,
    apiKey: created.body.key,
    reset: () => {
      gemini.reset();
      vertex.reset();
    },
    close: async () => {
      await server.close();
      await Promise.all([gemini.close(), vertex.close(), oauth.close()]);
      restore('SWITCHYARD_TEST_GEMINI_KEY', saved.key);
      restore('GOOGLE_APPLICATION_CREDENTIALS', saved.file);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
