import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogConfigError, parseCatalogText } from '../index.js';

const MODEL = `models:
  - slug: openai/gpt-4o
    context_length: 128000
    endpoints:
      - { provider: azure, upstream_model: gpt4o, pricing: { prompt: 0.0000025, completion: 0.00001 } }
`;

function parse(providers: string, env: Record<string, string> = {}) {
  return parseCatalogText(`providers:\n${providers}${MODEL}`, { fileName: 'config.yaml', env, defaultCreated: 1 });
}

/** The formatted issue lines (file:line: path: message) of a config that must fail. */
function issuesOf(providers: string): string[] {
  try {
    parse(providers);
  } catch (error) {
    assert.ok(error instanceof CatalogConfigError);
    return error.lines();
  }
  assert.fail('expected a CatalogConfigError');
}

describe('kind: azure catalog fields', () => {
  it('reads api_version and the auth mode; a keyed provider is available once its key variable is set', () => {
    const keyed = parse(
      `  - id: azure
    kind: azure
    base_url: https://contoso.openai.azure.com
    api_version: 2024-10-21
    api_key_env: AZURE_OPENAI_API_KEY
`,
      { AZURE_OPENAI_API_KEY: 'k' },
    );
    const provider = keyed.findProvider('azure');
    assert.deepEqual(provider?.azure, { apiVersion: '2024-10-21', auth: 'api_key' });
    assert.equal(provider?.available, true);
    assert.equal(provider?.getApiKey(), 'k');
    const entra = parse(`  - id: azure
    kind: azure
    base_url: https://contoso.openai.azure.com
    api_version: v1
    auth: entra
`);
    assert.deepEqual(entra.findProvider('azure')?.azure, { apiVersion: 'v1', auth: 'entra' });
    assert.equal(entra.findProvider('azure')?.available, true, 'Entra needs no key variable');
  });

  it('file:line errors: a missing or malformed api_version, a key with entra, no key without it, fields on another kind', () => {
    assert.deepEqual(
      issuesOf(`  - id: azure
    kind: azure
    base_url: https://contoso.openai.azure.com
    api_key_env: AZURE_OPENAI_API_KEY
`),
      ['config.yaml:2: providers[0]: missing required key "api_version"'],
    );
    const lines = issuesOf(`  - id: azure
    kind: azure
    base_url: https://contoso.openai.azure.com
    api_version: latest
    auth: entra
    api_key_env: AZURE_OPENAI_API_KEY
  - id: azure-b
    kind: azure
    base_url: https://contoso.openai.azure.com
    api_version: 2025-04-01-preview
    auth: managed
  - id: plain
    kind: openai
    base_url: https://api.openai.com/v1
    api_version: v1
`);
    assert.deepEqual(lines, [
      'config.yaml:5: providers[0].api_version: "latest" is not an Azure OpenAI API version ("2024-10-21", "2025-04-01-preview") or "v1"',
      'config.yaml:7: providers[0].api_key_env: a provider with auth: entra takes no key',
      'config.yaml:12: providers[1].auth: must be one of api_key, entra, got "managed"',
      'config.yaml:8: providers[1]: a provider of kind "azure" needs api_key_env (or api_key), or auth: entra',
      'config.yaml:16: providers[2].api_version: only a provider of kind "azure" takes api_version',
    ]);
  });

  it('native_responses: declared on the v1 API it is native; on a dated API it is an error at its line', () => {
    const v1 = (extra: string) =>
      parse(
        `  - id: azure
    kind: azure
    base_url: https://contoso.openai.azure.com
    api_version: v1
    api_key_env: AZURE_OPENAI_API_KEY
${extra}`,
        { AZURE_OPENAI_API_KEY: 'k' },
      );
    assert.ok(v1('    native_responses: true\n').findProvider('azure')?.nativeDialects.includes('openai-responses'));
    const undeclared = v1('');
    assert.ok(
      !undeclared.findProvider('azure')?.nativeDialects.includes('openai-responses'),
      'translated unless declared',
    );
    assert.deepEqual(
      issuesOf(`  - id: azure
    kind: azure
    base_url: https://contoso.openai.azure.com
    api_version: 2024-10-21
    api_key_env: AZURE_OPENAI_API_KEY
    native_responses: true
`),
      [
        'config.yaml:7: providers[0].native_responses: native_responses needs api_version: v1 (Azure\'s Responses API), not "2024-10-21"',
      ],
    );
  });
});
