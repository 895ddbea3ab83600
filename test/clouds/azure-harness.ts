import assert from 'node:assert/strict';
import { after, before, beforeEach, describe } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import {
  AZURE_TEST,
  MANAGED_IDENTITY_HEADER,
  MANAGED_IDENTITY_PATH,
  startFakeAzure,
  startFakeEntra,
  type FakeAzure,
  type FakeEntra,
} from '../fake-clouds/index.js';
import { call, dialects, startTestServer, type TestDialect, type TestServer } from '../support/server.js';

/** USD per token of the test catalog's endpoints, so tests can assert costs exactly. */
export const AZURE_PRICES = {
  key: { prompt: 0.000001, completion: 0.000002 },
  entra: { prompt: 0.000002, completion: 0.000004 },
  embed: { prompt: 0.0000001, completion: 0 },
  responses: { prompt: 0.0000005, completion: 0.000001 },
};

/** The environment variable the catalog's keyed provider reads its key from. */
export const AZURE_KEY_ENV = 'SWITCHYARD_TEST_AZURE_OPENAI_KEY';
export const WRONG_KEY = 'wrong-azure-key-0000000000000099';

/**
 * Four Azure providers on one fake resource: `azure-key` (dated API version, `api-key` from the
 * environment), `azure-entra` (v1 API, Entra ID token from managed identity), `azure-badkey` (a
 * key the resource refuses), `azure-responses` (v1 API, the key, `native_responses`).
 * `openai/gpt-4o` has the keyed endpoint first (cheaper) and the Entra one behind it, for fallback.
 */
export function azureCatalog(azureUrl: string): Record<string, unknown> {
  const fast = { connect_ms: 2000, first_byte_ms: 3000, idle_ms: 3000 };
  const provider = (id: string, extra: Record<string, unknown>) => ({
    id,
    kind: 'azure',
    base_url: azureUrl,
    timeouts: fast,
    ...extra,
  });
  const chat = (slug: string, endpoints: Record<string, unknown>[]) => ({
    slug,
    context_length: 128000,
    input_modalities: ['text', 'image'],
    endpoints,
  });
  const keyed = { provider: 'azure-key', upstream_model: 'gpt4o', pricing: AZURE_PRICES.key };
  const entra = { provider: 'azure-entra', upstream_model: 'gpt4o', pricing: AZURE_PRICES.entra };
  return {
    providers: [
      provider('azure-key', { api_version: '2024-10-21', api_key_env: AZURE_KEY_ENV }),
      provider('azure-entra', { api_version: 'v1', auth: 'entra' }),
      provider('azure-badkey', { api_version: '2024-10-21', api_key: WRONG_KEY }),
      provider('azure-responses', { api_version: 'v1', api_key_env: AZURE_KEY_ENV, native_responses: true }),
    ],
    models: [
      chat('openai/gpt-4o-key', [keyed]),
      chat('openai/gpt-4o-entra', [entra]),
      chat('openai/gpt-4o', [keyed, entra]),
      chat('openai/gpt-4o-badkey', [{ ...keyed, provider: 'azure-badkey' }]),
      // The Responses API natively (cheapest), the dated chat API translated behind it.
      chat('openai/gpt-4o-responses', [
        { provider: 'azure-responses', upstream_model: 'gpt4o', pricing: AZURE_PRICES.responses },
        keyed,
      ]),
      {
        slug: 'openai/text-embedding-3-small',
        context_length: 8192,
        serves: ['embeddings'],
        endpoints: [{ provider: 'azure-key', upstream_model: 'embed', pricing: AZURE_PRICES.embed }],
      },
      {
        slug: 'openai/text-embedding-3-small-entra',
        context_length: 8192,
        serves: ['embeddings'],
        endpoints: [{ provider: 'azure-entra', upstream_model: 'embed', pricing: AZURE_PRICES.embed }],
      },
    ],
  };
}

export interface AzureGateway {
  server: TestServer;
  azure: FakeAzure;
  entra: FakeEntra;
  apiKey: string;
  openai: OpenAI;
  close(): Promise<void>;
}

/**
 * Points the process's Azure credential chain at the fake Entra's managed-identity endpoint (the
 * gateway's own, unmodified `auth: entra` chain finds it through `IDENTITY_ENDPOINT`), and gives
 * the keyed provider its key. Once per test process.
 */
function azureEnvironment(entra: FakeEntra): void {
  for (const name of ['AZURE_TENANT_ID', 'AZURE_CLIENT_ID', 'AZURE_CLIENT_SECRET', 'AZURE_FEDERATED_TOKEN_FILE'])
    delete process.env[name];
  process.env.IDENTITY_ENDPOINT = `${entra.url}${MANAGED_IDENTITY_PATH}`;
  process.env.IDENTITY_HEADER = MANAGED_IDENTITY_HEADER;
  process.env[AZURE_KEY_ENV] = AZURE_TEST.apiKey;
}

let shared: { azure: FakeAzure; entra: FakeEntra } | null = null;

/**
 * Stops the fakes (a file's last `after`). One Entra and one resource serve the whole test
 * process: the gateway keeps one token source per Azure provider for the process's life, so its
 * token must stay valid across the file's servers.
 */
export async function stopAzureFakes(): Promise<void> {
  if (shared === null) return;
  await shared.azure.close();
  await shared.entra.close();
  shared = null;
}

/** The real server over the fake Azure resource, and an API key. */
export async function startAzureGateway(dialect: TestDialect): Promise<AzureGateway> {
  if (shared === null) {
    const entra = await startFakeEntra();
    const azure = await startFakeAzure({ entra: entra.ledger });
    azureEnvironment(entra);
    shared = { azure, entra };
  }
  const { azure, entra } = shared;
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-azure-'));
  const configPath = join(dir, 'catalog.json');
  writeFileSync(configPath, JSON.stringify(azureCatalog(azure.url)));
  const server = await startTestServer({ dialect, env: { SWITCHYARD_CONFIG: configPath } });
  const created = await call<{ key: string }>(server, 'POST', '/keys', {
    token: server.managementToken,
    body: { name: 'azure' },
  });
  assert.equal(created.status, 201);
  const apiKey = created.body.key;
  return {
    server,
    azure,
    entra,
    apiKey,
    openai: new OpenAI({ baseURL: server.api, apiKey, maxRetries: 0 }),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Adds a guardrail to a new key; returns the key. */
export async function keyWithGuardrail(gw: AzureGateway, guardrail: Record<string, unknown>): Promise<string> {
  const token = gw.server.managementToken;
  const key = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
    token,
    body: { name: 'guarded' },
  });
  const g = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
    token,
    body: { name: `g-${Math.random()}`, ...guardrail },
  });
  assert.equal(g.status, 201, JSON.stringify(g.body));
  await call(gw.server, 'POST', `/guardrails/${g.body.data.id}/assignments/keys`, {
    token,
    body: { key_hashes: [key.body.data.hash] },
  });
  return key.body.key;
}

/**
 * One suite per store dialect over the Azure gateway: started before, closed after, the fake
 * resource's queue and record cleared before each test; the fakes stop after the file.
 */
export function azureSuites(title: string, body: (gw: () => AzureGateway) => void): void {
  after(stopAzureFakes);
  for (const dialect of dialects()) {
    describe(`${title} (${dialect})`, () => {
      let gw: AzureGateway | null = null;
      const current = (): AzureGateway => {
        assert.ok(gw !== null, 'the gateway is started');
        return gw;
      };
      before(async () => {
        gw = await startAzureGateway(dialect);
      });
      after(() => gw?.close());
      beforeEach(() => current().azure.reset());
      body(current);
    });
  }
}
