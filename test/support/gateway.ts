import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.js';
import type { Clock } from '../../src/domain/common/clock.js';
import { startTestServer, type TestDialect, type TestServer, type TestServerOptions } from './server.js';

/** Prices (USD per token) of the test catalog, so tests can assert costs exactly. */
export const PRICES = {
  primary: { prompt: 0.000001, completion: 0.000002 },
  secondary: { prompt: 0.000002, completion: 0.000004 },
  anthropic: { prompt: 0.000003, completion: 0.000015 },
};

/** A catalog whose every endpoint is the fake upstream, in both wire formats. */
export function testCatalog(fakeUrl: string): Record<string, unknown> {
  const base = `${fakeUrl}/v1`;
  const fast = { connect_ms: 2000, first_byte_ms: 1500, idle_ms: 1500 };
  return {
    providers: [
      {
        id: 'fake-openai',
        name: 'Fake OpenAI',
        kind: 'openai',
        base_url: base,
        api_key: 'sk-upstream-primary-secret-0001',
        zdr: true,
        data_collection: 'deny',
        timeouts: fast,
      },
      {
        id: 'fake-openai-b',
        name: 'Fake OpenAI B',
        kind: 'openai',
        base_url: base,
        api_key: 'sk-upstream-secondary-secret-02',
        zdr: false,
        data_collection: 'allow',
        timeouts: fast,
      },
      {
        id: 'fake-anthropic',
        name: 'Fake Anthropic',
        kind: 'anthropic',
        base_url: base,
        api_key: 'sk-ant-upstream-secret-000003',
        zdr: true,
        data_collection: 'deny',
        timeouts: fast,
      },
    ],
    models: [
      {
        slug: 'openai/gpt-test',
        canonical_slug: 'openai/gpt-test-2026-01-01',
        context_length: 128000,
        endpoints: [
          { provider: 'fake-openai', upstream_model: 'gpt-test', pricing: PRICES.primary },
          { provider: 'fake-openai-b', upstream_model: 'gpt-test-b', pricing: PRICES.secondary },
        ],
      },
      {
        slug: 'anthropic/claude-test',
        context_length: 200000,
        endpoints: [{ provider: 'fake-anthropic', upstream_model: 'claude-test', pricing: PRICES.anthropic }],
      },
      {
        slug: 'google/gemini-test',
        context_length: 100000,
        endpoints: [{ provider: 'fake-openai-b', upstream_model: 'gemini-test', pricing: PRICES.secondary }],
      },
    ],
  };
}

export interface GatewayHarness {
  server: TestServer;
  fake: FakeUpstream;
  apiKey: string;
  close(): Promise<void>;
}

/** Fake upstream + the real server configured to use it + one API key. */
export async function startGateway(options: {
  dialect: TestDialect;
  env?: Record<string, string>;
  catalog?: (fakeUrl: string) => Record<string, unknown>;
  clock?: Clock;
  logger?: TestServerOptions['logger'];
}): Promise<GatewayHarness> {
  const fake = await startFakeUpstream();
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
  const configPath = join(dir, 'catalog.json');
  writeFileSync(configPath, JSON.stringify((options.catalog ?? testCatalog)(fake.url)));
  const server = await startTestServer({
    dialect: options.dialect,
    clock: options.clock,
    logger: options.logger,
    env: { SWITCHYARD_CONFIG: configPath, ...options.env },
  });
  const res = await fetch(`${server.api}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.managementToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'gateway-test' }),
  });
  const created = (await res.json()) as { key: string };
  return {
    server,
    fake,
    apiKey: created.key,
    close: async () => {
      await server.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
