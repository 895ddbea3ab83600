import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { CatalogConfigError, catalogFromObject, loadCatalog, parseCatalogText } from './index.js';

const GOOD_YAML = `providers:
  - id: openai
    name: OpenAI
    kind: openai
    base_url: https://api.openai.com/v1
    api_key_env: OPENAI_API_KEY
    zdr: false
    data_collection: deny
    timeouts: { connect_ms: 5000, first_byte_ms: 60000, idle_ms: 60000 }
  - id: local
    kind: openai
    base_url: http://127.0.0.1:11434/v1
    zdr: true
  - id: demo
    kind: demo
    zdr: true
models:
  - slug: openai/gpt-4o
    canonical_slug: openai/gpt-4o-2024-08-06
    name: GPT-4o
    context_length: 128000
    supported_parameters: [temperature, tools]
    endpoints:
      - provider: openai
        upstream_model: gpt-4o-2024-08-06
        pricing: { prompt: 0.0000025, completion: 0.00001 }
        max_completion_tokens: 16384
      - provider: local
        upstream_model: gpt-4o-local
        supported_parameters: [temperature]
        quantization: fp8
        pricing: { prompt: 0, completion: 0 }
  - slug: anthropic/claude-x
    context_length: 200000
    created: 2024-10-22
    endpoints:
      - { provider: demo, upstream_model: echo, pricing: { prompt: 0.000001, completion: 0.000002 } }
  - slug: meta-llama/llama-x
    context_length: 8192
    endpoints:
      - { provider: demo, upstream_model: fast, pricing: { prompt: 0.000001, completion: 0.000002 } }
`;

/** Parses and returns the formatted issue lines (file:line: path: message). */
function issuesOf(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseCatalogText(text, { fileName: 'config.yaml', env, defaultCreated: 1 });
  } catch (error) {
    assert.ok(error instanceof CatalogConfigError);
    return error.lines();
  }
  assert.fail('expected a CatalogConfigError');
}

describe('parseCatalogText: a good file', () => {
  const catalog = parseCatalogText(GOOD_YAML, {
    fileName: 'config.yaml',
    env: { OPENAI_API_KEY: 'sk-test' },
    defaultCreated: 42,
  });

  it('builds providers with defaults and resolved keys', () => {
    const openai = catalog.findProvider('OpenAI');
    assert.ok(openai);
    assert.equal(openai.available, true);
    assert.equal(openai.getApiKey(), 'sk-test');
    assert.equal(openai.dataCollection, 'deny');
    assert.deepEqual(openai.timeouts, { connectMs: 5000, firstByteMs: 60000, idleMs: 60000 });
    const local = catalog.findProvider('local');
    assert.equal(local?.name, 'local');
    assert.equal(local?.getApiKey(), null);
    assert.equal(local?.dataCollection, 'allow');
    assert.equal(catalog.findProvider('demo')?.baseUrl, null);
  });

  it('finds models by slug and canonical slug, with defaults filled in', () => {
    const model = catalog.findModel('openai/gpt-4o-2024-08-06');
    assert.equal(model, catalog.findModel('openai/gpt-4o'));
    assert.equal(model, catalog.findModel('OpenAI/GPT-4o'));
    assert.ok(model);
    assert.equal(model.author, 'openai');
    assert.equal(model.created, 42);
    assert.deepEqual(
      model.endpoints.map((e) => e.key),
      ['openai:gpt-4o-2024-08-06', 'local:gpt-4o-local'],
    );
    assert.deepEqual(model.endpoints[1]?.supportedParameters, ['temperature']);
    assert.deepEqual(model.endpoints[0]?.supportedParameters, ['temperature', 'tools']);
    assert.equal(model.endpoints[0]?.quantization, 'unknown');
    assert.equal(model.endpoints[1]?.quantization, 'fp8');
    assert.equal(catalog.findModel('anthropic/claude-x')?.created, Date.UTC(2024, 9, 22) / 1000);
    assert.equal(catalog.findModel('nope/nope'), undefined);
  });

  it('maps authors to ZDR groups with the default vendors', () => {
    assert.equal(catalog.zdrGroupOf('openai/gpt-4o'), 'vendor_c');
    assert.equal(catalog.zdrGroupOf('anthropic/claude-x'), 'vendor_a');
    assert.equal(catalog.zdrGroupOf('meta-llama/llama-x'), 'other');
    assert.equal(catalog.zdrGroupOf('google/not-in-catalog'), 'vendor_b');
    assert.equal(catalog.zdrGroupOf('x-ai/grok'), 'vendor_d');
    assert.deepEqual(catalog.vendorNames, {
      vendor_a: 'anthropic',
      vendor_b: 'google',
      vendor_c: 'openai',
      vendor_d: 'xai',
    });
    assert.equal(catalog.vendorForName('XAI'), 'vendor_d');
    assert.equal(catalog.vendorForName('other'), undefined);
  });

  it('is immutable and never serialises a secret', () => {
    assert.ok(Object.isFrozen(catalog));
    assert.ok(Object.isFrozen(catalog.models[0]));
    assert.ok(Object.isFrozen(catalog.providers[0]));
    assert.ok(!JSON.stringify(catalog.providers).includes('sk-test'));
  });
});

describe('parseCatalogText: environment-dependent availability', () => {
  it('marks a provider whose key variable is unset unavailable, with a warning', () => {
    const catalog = parseCatalogText(GOOD_YAML, { fileName: 'c.yaml', env: {}, defaultCreated: 1 });
    const openai = catalog.findProvider('openai');
    assert.equal(openai?.available, false);
    assert.equal(openai?.getApiKey(), null);
    assert.match(openai?.unavailableReason ?? '', /OPENAI_API_KEY is not set/);
    assert.ok(catalog.warnings.some((w) => w.includes('provider "openai"') && w.includes('OPENAI_API_KEY')));
    // The model still has an available endpoint (local), so it stays routable.
    assert.equal(catalog.findModel('openai/gpt-4o')?.available, true);
  });

  it('treats an empty variable as unset and handles base_url_env and enabled:false', () => {
    const text = `providers:
  - { id: a, kind: openai, base_url: "https://a.example/v1", api_key_env: A_KEY }
  - { id: b, kind: openai, base_url_env: B_URL }
  - { id: c, kind: anthropic, base_url: "https://c.example", api_key: literal, enabled: false }
  - { id: d, kind: openai, base_url_env: D_URL }
models:
  - slug: x/only-a
    context_length: 10
    endpoints: [{ provider: a, upstream_model: m, pricing: { prompt: 0, completion: 0 } }]
  - slug: x/b
    context_length: 10
    endpoints: [{ provider: b, upstream_model: m, pricing: { prompt: 0, completion: 0 } }]
`;
    const catalog = parseCatalogText(text, {
      fileName: 'c.yaml',
      env: { A_KEY: '  ', B_URL: 'http://127.0.0.1:1/v1', D_URL: 'not a url' },
      defaultCreated: 1,
    });
    assert.equal(catalog.findProvider('a')?.available, false);
    assert.equal(catalog.findProvider('b')?.available, true);
    assert.equal(catalog.findProvider('b')?.baseUrl, 'http://127.0.0.1:1/v1');
    assert.match(catalog.findProvider('c')?.unavailableReason ?? '', /disabled/);
    assert.match(catalog.findProvider('d')?.unavailableReason ?? '', /not an http\(s\) URL/);
    assert.equal(catalog.findModel('x/only-a')?.available, false);
    assert.ok(catalog.warnings.some((w) => w.includes('x/only-a')));
  });

  it('needs no key for kind demo', () => {
    const catalog = catalogFromObject(
      {
        providers: [{ id: 'demo', kind: 'demo', api_key_env: 'NEVER_SET' }],
        models: [
          {
            slug: 'demo/a',
            context_length: 1,
            endpoints: [{ provider: 'demo', upstream_model: 'echo', pricing: { prompt: 0, completion: 0 } }],
          },
        ],
      },
      { env: {} },
    );
    assert.equal(catalog.findProvider('demo')?.available, true);
  });
});

describe('native dialects of a provider', () => {
  const model = (provider: string) => ({
    slug: `x/${provider}`,
    context_length: 1,
    endpoints: [{ provider, upstream_model: 'm', pricing: { prompt: 0, completion: 0 } }],
  });
  const url = 'http://127.0.0.1:1/v1';

  it('an openai provider takes Responses natively only when it declares native_responses', () => {
    const catalog = catalogFromObject(
      {
        providers: [
          { id: 'plain', kind: 'openai', base_url: url },
          { id: 'responses', kind: 'openai', base_url: url, native_responses: true },
          { id: 'claude', kind: 'anthropic', base_url: url },
        ],
        models: [model('plain'), model('responses'), model('claude')],
      },
      { env: {} },
    );
    assert.ok(!catalog.findProvider('plain')?.nativeDialects.includes('openai-responses'));
    assert.ok(catalog.findProvider('responses')?.nativeDialects.includes('openai-responses'));
    assert.deepEqual(catalog.findProvider('claude')?.nativeDialects, ['anthropic-messages']);
  });

  it('refuses native_responses on a kind without a Responses API', () => {
    const lines = issuesOf(
      `providers:\n  - { id: c, kind: anthropic, base_url: ${url}, native_responses: true }\nmodels:\n  - { slug: x/c, context_length: 1, endpoints: [{ provider: c, upstream_model: m, pricing: { prompt: 0, completion: 0 } }] }\n`,
    );
    assert.ok(
      lines.some((l) => l.includes('native_responses') && l.includes('no Responses API')),
      lines.join('\n'),
    );
  });
});

describe('parseCatalogText: errors name the line and the path', () => {
  it('reports an unknown provider reference', () => {
    const text = GOOD_YAML.replace('  - provider: local', '  - provider: opnai');
    assert.deepEqual(issuesOf(text), ['config.yaml:28: models[0].endpoints[1].provider: unknown provider "opnai"']);
  });

  it('reports unknown keys at the key line, at every level', () => {
    const text = GOOD_YAML.replace('    zdr: false\n', '    zdrr: false\n')
      .replace('    name: GPT-4o\n', '    name: GPT-4o\n    contxt: 1\n')
      .replace('        max_completion_tokens: 16384\n', '        max_completion_tokens: 16384\n        pricingg: 1\n');
    const lines = issuesOf(text);
    assert.equal(lines.length, 3);
    assert.match(lines[0] ?? '', /^config\.yaml:7: providers\[0\]\.zdrr: unknown key "zdrr"/);
    assert.match(lines[1] ?? '', /^config\.yaml:21: models\[0\]\.contxt: unknown key/);
    assert.match(lines[2] ?? '', /^config\.yaml:29: models\[0\]\.endpoints\[0\]\.pricingg: unknown key/);
  });

  it('reports an unknown top-level key and a missing required section', () => {
    const lines = issuesOf('provider: []\nmodels: []\n');
    assert.deepEqual(lines, [
      'config.yaml:1: provider: unknown key "provider" (allowed: providers, zdr_vendors, models)',
      'config.yaml:1: missing required key "providers"',
    ]);
  });

  it('reports duplicate provider ids, slugs and canonical slugs', () => {
    const text = `providers:
  - { id: demo, kind: demo }
  - { id: demo, kind: demo }
models:
  - slug: a/b
    canonical_slug: a/b-1
    context_length: 1
    endpoints: [{ provider: demo, upstream_model: x, pricing: { prompt: 0, completion: 0 } }]
  - slug: a/b-1
    context_length: 1
    endpoints: [{ provider: demo, upstream_model: x, pricing: { prompt: 0, completion: 0 } }]
  - slug: a/c
    context_length: 1
    endpoints:
      - { provider: demo, upstream_model: x, pricing: { prompt: 0, completion: 0 } }
      - { provider: demo, upstream_model: y, pricing: { prompt: 0, completion: 0 } }
`;
    assert.deepEqual(issuesOf(text), [
      'config.yaml:3: providers[1].id: duplicate provider id "demo"',
      'config.yaml:9: models[1].slug: "a/b-1" is already used as the canonical_slug of models[0]',
      'config.yaml:16: models[2].endpoints[1].provider: provider "demo" already serves this model',
    ]);
  });

  it('reports negative and implausible prices, bad types and enum values', () => {
    const text = `providers:
  - id: demo
    kind: demo
    data_collection: maybe
    zdr: "yes"
models:
  - slug: demo/a
    context_length: 0
    endpoints:
      - provider: demo
        upstream_model: echo
        quantization: fp7
        pricing:
          prompt: -0.000001
          completion: 2.5
`;
    assert.deepEqual(issuesOf(text), [
      'config.yaml:5: providers[0].zdr: must be true or false, got string "yes"',
      'config.yaml:4: providers[0].data_collection: must be one of allow, deny, got "maybe"',
      'config.yaml:8: models[0].context_length: must be greater than 0, got 0',
      'config.yaml:14: models[0].endpoints[0].pricing.prompt: must not be negative, got -0.000001',
      'config.yaml:15: models[0].endpoints[0].pricing.completion: 2.5 USD per token is implausible; prices are USD per TOKEN (e.g. $2.50 per million = 0.0000025)',
      'config.yaml:12: models[0].endpoints[0].quantization: must be one of int4, int8, fp4, mxfp4, nvfp4, fp6, fp8, mxfp8, fp16, bf16, fp32, unknown, got "fp7"',
    ]);
  });

  it('reports missing base_url, conflicting key sources, bad slugs and unknown parameters', () => {
    const text = `providers:
  - id: OpenAI
    kind: openai
    api_key: a
    api_key_env: B
models:
  - slug: gpt-4o
    context_length: 1
    supported_parameters: [temprature]
    endpoints: []
`;
    assert.deepEqual(issuesOf(text), [
      'config.yaml:2: providers[0].id: "OpenAI" is not a lowercase slug',
      'config.yaml:5: providers[0].api_key_env: give either api_key or api_key_env, not both',
      'config.yaml:2: providers[0]: provider of kind "openai" needs base_url or base_url_env',
      'config.yaml:7: models[0].slug: "gpt-4o" is not a lowercase "author/name" slug',
      'config.yaml:10: models[0].endpoints: a model needs at least one endpoint',
      `config.yaml:9: models[0].supported_parameters[0]: must be one of ${'temperature'}${', top_p, top_k, min_p, top_a, frequency_penalty, presence_penalty, repetition_penalty, max_tokens, max_completion_tokens, logit_bias, logprobs, top_logprobs, prediction, seed, response_format, structured_outputs, stop, tools, tool_choice, parallel_tool_calls, include_reasoning, reasoning, reasoning_effort, web_search_options, verbosity'}, got "temprature"`,
    ]);
  });

  it('reports YAML syntax errors and duplicate keys with their line', () => {
    const lines = issuesOf('providers:\n  - id: a\n    id: b\nmodels: []\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /^config\.yaml:3: Map keys must be unique/);
    const syntax = issuesOf('providers: [\nmodels: []\n');
    assert.match(syntax[0] ?? '', /^config\.yaml:\d+: /);
  });

  it('reports a root that is not a mapping', () => {
    assert.deepEqual(issuesOf(''), ['config.yaml: must be a mapping, got null']);
  });

  it('validates zdr_vendors overrides', () => {
    const base = 'providers: []\nmodels: []\nzdr_vendors:\n';
    assert.deepEqual(issuesOf(`${base}  vendor_a: { name: other, authors: [anthropic] }\n  vendor_e: {}\n`), [
      'config.yaml:5: zdr_vendors.vendor_e: unknown key "vendor_e" (allowed: vendor_a, vendor_b, vendor_c, vendor_d)',
      'config.yaml:4: zdr_vendors.vendor_a.name: "other" is reserved for enforce_zdr_other',
    ]);
    assert.deepEqual(issuesOf(`${base}  vendor_b: { name: gemini, authors: [anthropic] }\n`), [
      'config.yaml:4: zdr_vendors.vendor_b.authors: author "anthropic" is also listed under vendor_a',
    ]);
    const catalog = parseCatalogText(`${base}  vendor_d: { name: mistral, authors: [mistralai, mistral] }\n`, {
      fileName: 'c',
      env: {},
    });
    assert.equal(catalog.vendorNames.vendor_d, 'mistral');
    assert.equal(catalog.zdrGroupOf('mistralai/mistral-large'), 'vendor_d');
    assert.equal(catalog.zdrGroupOf('x-ai/grok'), 'other');
    assert.equal(catalog.vendorNames.vendor_a, 'anthropic');
  });
});

describe('parseCatalogText: JSON', () => {
  it('reads JSON (tab-indented too) and reports lines in it', () => {
    const good = JSON.stringify(
      {
        providers: [{ id: 'demo', kind: 'demo', zdr: true }],
        models: [
          {
            slug: 'demo/a',
            context_length: 5,
            endpoints: [{ provider: 'demo', upstream_model: 'echo', pricing: { prompt: 0, completion: 0 } }],
          },
        ],
      },
      null,
      '\t',
    );
    const catalog = parseCatalogText(good, { fileName: 'config.json', env: {} });
    assert.equal(catalog.findModel('demo/a')?.contextLength, 5);
    const bad = good.replace('"upstream_model"', '"upstream"');
    try {
      parseCatalogText(bad, { fileName: 'config.json', env: {} });
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(error instanceof CatalogConfigError);
      const lines = error.lines();
      const lineOfKey = bad.split('\n').findIndex((l) => l.includes('"upstream"')) + 1;
      assert.ok(
        lines.includes(
          `config.json:${lineOfKey}: models[0].endpoints[0].upstream: unknown key "upstream" (allowed: provider, upstream_model, pricing, context_length, max_completion_tokens, supported_parameters, quantization, is_moderated)`,
        ),
        lines.join('\n'),
      );
      assert.ok(lines.some((l) => l.includes('missing required key "upstream_model"')));
    }
  });
});

describe('loadCatalog', () => {
  it('uses the built-in demo catalog when no path is given', async () => {
    for (const path of [undefined, '', '  ']) {
      const result = await loadCatalog({ path, env: {} });
      assert.equal(result.source, 'built-in');
      assert.deepEqual(
        result.catalog.models.map((m) => m.slug),
        ['demo/echo', 'demo/fast', 'demo/embed'],
      );
      assert.deepEqual(result.warnings, []);
      assert.equal(result.catalog.findProvider('demo')?.zdr, true);
    }
  });

  it('reads a file, using its mtime as the default created', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-catalog-'));
    try {
      const file = join(dir, 'config.yaml');
      await writeFile(file, GOOD_YAML);
      const result = await loadCatalog({ path: file, env: {} });
      assert.equal(result.source, file);
      assert.ok((result.catalog.findModel('openai/gpt-4o')?.created ?? 0) > 1_600_000_000);
      assert.ok(result.warnings.some((w) => w.includes('OPENAI_API_KEY')));
      await writeFile(file, GOOD_YAML.replace('provider: local', 'provider: opnai'));
      await assert.rejects(loadCatalog({ path: file, env: {} }), (error: unknown) => {
        assert.ok(error instanceof CatalogConfigError);
        assert.match(
          error.message,
          new RegExp(
            `${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:28: models\\[0\\]\\.endpoints\\[1\\]\\.provider: unknown provider "opnai"`,
          ),
        );
        return true;
      });
      await assert.rejects(
        loadCatalog({ path: join(dir, 'missing.yaml'), env: {} }),
        /cannot read the config file \(ENOENT\)/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loads the shipped examples', async () => {
    const root = fileURLToPath(new URL('../../../examples/', import.meta.url));
    const example = await loadCatalog({ path: join(root, 'config.example.yaml'), env: {} });
    assert.deepEqual(
      example.catalog.providers.filter((p) => p.available).map((p) => p.id),
      ['demo'],
    );
    assert.ok(example.warnings.some((w) => w.includes('OLLAMA_BASE_URL')));
    const withKeys = await loadCatalog({
      path: join(root, 'config.example.yaml'),
      env: {
        OPENAI_API_KEY: 'k',
        ANTHROPIC_API_KEY: 'k',
        OPENROUTER_API_KEY: 'k',
        GROQ_API_KEY: 'k',
        TOGETHER_API_KEY: 'k',
        OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1',
        AZURE_OPENAI_ENDPOINT: 'https://contoso.openai.azure.com',
        AZURE_OPENAI_API_KEY: 'k',
        AWS_REGION: 'us-east-1',
        GEMINI_API_KEY: 'k',
        GOOGLE_CLOUD_PROJECT: 'my-project-1',
      },
    });
    assert.ok(withKeys.catalog.providers.every((p) => p.available));
    assert.deepEqual(withKeys.warnings, []);
    const vendors = await loadCatalog({ path: join(root, 'config.demo-vendors.yaml'), env: {} });
    assert.deepEqual(
      vendors.catalog.models.map((m) => m.zdrGroup),
      ['vendor_a', 'vendor_b', 'vendor_c', 'vendor_d', 'other', 'other', 'other'],
    );
  });
});
