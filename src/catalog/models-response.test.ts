import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ModelsListResponse$inboundSchema } from '@openrouter/sdk/models';
import { ListProvidersResponse$inboundSchema } from '@openrouter/sdk/models/operations';
import { isGatewayError } from '../errors/index.js';
import {
  catalogFromObject,
  decimalString,
  defaultCatalog,
  toModelsResponse,
  toProvidersResponse,
  toWireModel,
} from './index.js';

function model(
  slug: string,
  extra: Record<string, unknown>,
  endpoints: Record<string, unknown>[],
): Record<string, unknown> {
  return { slug, context_length: 1000, ...extra, endpoints };
}
const ep = (provider: string, prompt: number, completion: number, extra: Record<string, unknown> = {}) => ({
  provider,
  upstream_model: `${provider}-m`,
  pricing: { prompt, completion },
  ...extra,
});

const catalog = catalogFromObject(
  {
    providers: [
      {
        id: 'cheap',
        kind: 'openai',
        base_url: 'https://cheap.example/v1',
        zdr: false,
        privacy_policy_url: 'https://cheap.example/p',
        headquarters: 'US',
        datacenters: ['US', 'DE'],
      },
      { id: 'safe', name: 'Safe Inc', kind: 'openai', base_url: 'https://safe.example/v1', zdr: true },
      { id: 'off', kind: 'openai', base_url: 'https://off.example/v1', api_key_env: 'UNSET_KEY' },
    ],
    models: [
      model(
        'openai/gpt-a',
        {
          created: 300,
          input_modalities: ['text', 'image'],
          supported_parameters: ['tools', 'temperature'],
          description: 'Alpha model',
        },
        [
          ep('safe', 0.0000025, 0.00001, { max_completion_tokens: 100, is_moderated: true }),
          ep('cheap', 0.000002, 0.000008),
        ],
      ),
      model('anthropic/claude-b', { created: 100, context_length: 200000, distillable: true }, [
        ep('safe', 0.000003, 0.000015),
      ]),
      model('meta/llama-c', { created: 200, output_modalities: ['text', 'image'], hugging_face_id: 'meta/Llama-C' }, [
        ep('cheap', 1e-7, 2e-7, { quantization: 'fp8' }),
      ]),
      model('x/hidden', {}, [ep('off', 0, 0)]),
      model('x/embed', { output_modalities: ['embeddings'] }, [ep('cheap', 1e-8, 0)]),
    ],
  },
  { env: {}, defaultCreated: 1 },
);

const ids = (query: Record<string, unknown>) => toModelsResponse(catalog, query).data.map((m) => m.id);

describe('decimalString', () => {
  it('prints per-token prices without exponent or float noise', () => {
    assert.equal(decimalString(0.0000025), '0.0000025');
    assert.equal(decimalString(1e-7), '0.0000001');
    assert.equal(decimalString(1.5e-7), '0.00000015');
    assert.equal(decimalString(0.00000125), '0.00000125');
    assert.equal(decimalString(0), '0');
    assert.equal(decimalString(0.04), '0.04');
    assert.equal(decimalString(1e21), '1000000000000000000000');
    assert.equal(decimalString(-2e-8), '-0.00000002');
  });
});

describe('toModelsResponse', () => {
  it('matches the SDK schema exactly, for the default catalog and a richer one', () => {
    for (const c of [defaultCatalog(), catalog]) {
      const body = toModelsResponse(c, {});
      const parsed = ModelsListResponse$inboundSchema.safeParse(JSON.parse(JSON.stringify(body)));
      assert.ok(parsed.success, JSON.stringify(parsed.error));
    }
  });

  it('emits every required key with the cheapest available endpoint as top provider', () => {
    const wire = toModelsResponse(catalog, {}).data[0];
    assert.deepEqual(wire, {
      id: 'openai/gpt-a',
      canonical_slug: 'openai/gpt-a',
      name: 'openai/gpt-a',
      created: 300,
      description: 'Alpha model',
      context_length: 1000,
      architecture: {
        input_modalities: ['text', 'image'],
        output_modalities: ['text'],
        modality: 'text+image->text',
        tokenizer: 'Other',
        instruct_type: null,
      },
      pricing: { prompt: '0.000002', completion: '0.000008' },
      top_provider: { is_moderated: false, context_length: 1000, max_completion_tokens: null },
      per_request_limits: null,
      supported_parameters: ['tools', 'temperature'],
      supported_voices: null,
      default_parameters: null,
      links: { details: '/api/v1/models/openai/gpt-a/endpoints' },
    });
    const llama = toWireModel(catalog, catalog.findModel('meta/llama-c') ?? assert.fail(), {
      basePath: 'https://gw.example/api/v1/',
    });
    assert.equal(llama.links.details, 'https://gw.example/api/v1/models/meta/llama-c/endpoints');
    assert.equal(llama.hugging_face_id, 'meta/Llama-C');
    assert.deepEqual(llama.pricing, { prompt: '0.0000001', completion: '0.0000002' });
  });

  it('hides models without an available provider and non-text models by default', () => {
    assert.deepEqual(ids({}), ['openai/gpt-a', 'anthropic/claude-b', 'meta/llama-c']);
    assert.deepEqual(ids({ output_modalities: 'all' }), [
      'openai/gpt-a',
      'anthropic/claude-b',
      'meta/llama-c',
      'x/embed',
    ]);
    assert.deepEqual(ids({ output_modalities: 'embeddings' }), ['x/embed']);
    assert.equal(toModelsResponse(catalog, {}).total_count, 3);
  });

  it('returns all when offset and limit are both omitted, pages otherwise', () => {
    const all = toModelsResponse(catalog, {});
    assert.equal(all.links.next, null);
    const first = toModelsResponse(catalog, { limit: '2', q: 'a' });
    assert.deepEqual(
      first.data.map((m) => m.id),
      ['openai/gpt-a', 'anthropic/claude-b'],
    );
    assert.equal(first.total_count, 3);
    assert.equal(first.links.next, '/api/v1/models?q=a&offset=2&limit=2');
    const second = toModelsResponse(catalog, { limit: '2', offset: '2', q: 'a' });
    assert.deepEqual(
      second.data.map((m) => m.id),
      ['meta/llama-c'],
    );
    assert.equal(second.links.next, null);
    assert.deepEqual(
      toModelsResponse(catalog, { offset: '1' }).data.map((m) => m.id),
      ['anthropic/claude-b', 'meta/llama-c'],
    );
  });

  it('filters by parameters, modalities, context, prices, authors, providers, zdr, distillable, q', () => {
    assert.deepEqual(ids({ supported_parameters: 'tools,temperature' }), [
      'openai/gpt-a',
      'anthropic/claude-b',
      'meta/llama-c',
    ]);
    assert.deepEqual(ids({ supported_parameters: 'tools,top_logprobs' }), ['anthropic/claude-b', 'meta/llama-c']);
    assert.deepEqual(ids({ input_modalities: 'image' }), ['openai/gpt-a']);
    assert.deepEqual(ids({ context: '100000' }), ['anthropic/claude-b']);
    assert.deepEqual(ids({ max_price: '2' }), ['openai/gpt-a', 'meta/llama-c']);
    assert.deepEqual(ids({ min_price: '2.5' }), ['anthropic/claude-b']);
    assert.deepEqual(ids({ max_output_price: '8' }), ['openai/gpt-a', 'meta/llama-c']);
    assert.deepEqual(ids({ min_output_price: '10' }), ['anthropic/claude-b']);
    assert.deepEqual(ids({ model_authors: 'anthropic,meta' }), ['anthropic/claude-b', 'meta/llama-c']);
    assert.deepEqual(ids({ providers: 'safe' }), ['openai/gpt-a', 'anthropic/claude-b']);
    assert.deepEqual(ids({ providers: 'off' }), []);
    assert.deepEqual(ids({ zdr: 'true' }), ['openai/gpt-a', 'anthropic/claude-b']);
    assert.deepEqual(ids({ distillable: 'true' }), ['anthropic/claude-b']);
    assert.deepEqual(ids({ q: 'ALPHA' }), ['openai/gpt-a']);
    assert.deepEqual(ids({ category: 'programming', arch: 'x' }), [
      'openai/gpt-a',
      'anthropic/claude-b',
      'meta/llama-c',
    ]);
  });

  it('sorts', () => {
    assert.deepEqual(ids({ sort: 'newest' }), ['openai/gpt-a', 'meta/llama-c', 'anthropic/claude-b']);
    assert.deepEqual(ids({ sort: 'pricing-low-to-high' }), ['meta/llama-c', 'openai/gpt-a', 'anthropic/claude-b']);
    assert.deepEqual(ids({ sort: 'pricing-high-to-low' }), ['anthropic/claude-b', 'openai/gpt-a', 'meta/llama-c']);
    assert.deepEqual(ids({ sort: 'context-high-to-low' })[0], 'anthropic/claude-b');
    assert.deepEqual(ids({ sort: 'most-popular' }), ['openai/gpt-a', 'anthropic/claude-b', 'meta/llama-c']);
  });

  it('rejects malformed parameters with a 400 naming the field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ limit: '0' }, 'limit'],
      [{ limit: '1001' }, 'limit'],
      [{ limit: 'x' }, 'limit'],
      [{ offset: '-1' }, 'offset'],
      [{ sort: 'random' }, 'sort'],
      [{ context: '0' }, 'context'],
      [{ max_price: '-1' }, 'max_price'],
      [{ zdr: 'yes' }, 'zdr'],
      [{ limit: ['1', '2'] }, 'limit'],
    ];
    for (const [query, field] of cases) {
      assert.throws(
        () => toModelsResponse(catalog, query),
        (error: unknown) => {
          assert.ok(isGatewayError(error));
          assert.equal(error.status, 400);
          assert.deepEqual(error.metadata, { field });
          return true;
        },
        JSON.stringify(query),
      );
    }
    assert.equal(toModelsResponse(catalog, { limit: '1000' }).data.length, 3);
  });
});

describe('toProvidersResponse', () => {
  it('lists available providers in the SDK shape', () => {
    const body = toProvidersResponse(catalog);
    assert.ok(ListProvidersResponse$inboundSchema.safeParse(body).success);
    assert.deepEqual(
      body.data.map((p) => [p.slug, p.name]),
      [
        ['cheap', 'cheap'],
        ['safe', 'Safe Inc'],
      ],
    );
    assert.deepEqual(body.data[0], {
      name: 'cheap',
      slug: 'cheap',
      privacy_policy_url: 'https://cheap.example/p',
      terms_of_service_url: null,
      status_page_url: null,
      headquarters: 'US',
      datacenters: ['US', 'DE'],
    });
    assert.deepEqual(Object.keys(body), ['data']);
  });
});
