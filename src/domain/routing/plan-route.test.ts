import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogFromObject, type ZdrGroup } from '../../catalog/index.js';
import {
  EndpointHealth,
  OPEN_POLICY,
  type PlanRouteOptions,
  type ProviderPreferences,
  type RouteRefusal,
  type RoutingPolicy,
  planRoute,
  refusalToError,
  validateProviderPreferences,
} from './index.js';

const M = 1e-6; // USD per token for $1 per million
const ep = (provider: string, prompt: number, completion: number, extra: Record<string, unknown> = {}) => ({
  provider,
  upstream_model: `${provider}-model`,
  pricing: { prompt: prompt * M, completion: completion * M },
  ...extra,
});

const catalog = catalogFromObject(
  {
    providers: [
      { id: 'cheap', kind: 'openai', base_url: 'https://cheap.example/v1', zdr: false, data_collection: 'allow' },
      {
        id: 'zdr',
        name: 'ZDR Cloud',
        kind: 'openai',
        base_url: 'https://zdr.example/v1',
        zdr: true,
        data_collection: 'deny',
      },
      { id: 'mid', kind: 'openai', base_url: 'https://mid.example/v1', zdr: false, data_collection: 'deny' },
      { id: 'off', kind: 'openai', base_url: 'https://off.example/v1', api_key_env: 'UNSET_KEY' },
    ],
    models: [
      {
        slug: 'openai/gpt-x',
        canonical_slug: 'openai/gpt-x-2025',
        context_length: 1000,
        endpoints: [
          ep('cheap', 1, 2),
          ep('zdr', 3, 6),
          ep('mid', 2, 4, { quantization: 'fp8', supported_parameters: ['temperature'] }),
        ],
      },
      { slug: 'anthropic/claude-y', context_length: 1000, endpoints: [ep('zdr', 3, 15), ep('cheap', 1, 5)] },
      {
        slug: 'meta/llama-z',
        context_length: 1000,
        distillable: true,
        endpoints: [
          ep('mid', 0.2, 0.2),
          { ...ep('cheap', 0.1, 0.1), pricing: { prompt: 0.1 * M, completion: 0.1 * M, request: 0.01 } },
        ],
      },
      { slug: 'x/offline', context_length: 1000, endpoints: [ep('off', 1, 1)] },
    ],
  },
  { env: {}, defaultCreated: 1 },
);

function prefs(input: Record<string, unknown>): ProviderPreferences {
  const result = validateProviderPreferences(input);
  assert.ok(result.ok, JSON.stringify(result));
  return result.value;
}

function policy(overrides: Partial<RoutingPolicy>): RoutingPolicy {
  return { ...OPEN_POLICY, ...overrides };
}

function route(options: Omit<PlanRouteOptions, 'catalog'>): string[] {
  const result = planRoute({ catalog, ...options });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.refusal));
  return result.candidates.map((c) => `${c.model.slug}@${c.provider.id}`);
}

function refusal(options: Omit<PlanRouteOptions, 'catalog'>): RouteRefusal {
  const result = planRoute({ catalog, ...options });
  assert.ok(!result.ok, 'expected a refusal');
  return result.refusal;
}

describe('planRoute: models', () => {
  it('refuses without a model, and names an unknown one', () => {
    assert.deepEqual(refusal({}), { kind: 'missing_model' });
    assert.deepEqual(refusal({ model: null, models: [] }), { kind: 'missing_model' });
    assert.deepEqual(refusal({ model: 'openai/nope' }), { kind: 'unknown_model', model: 'openai/nope' });
    assert.deepEqual(refusal({ model: 'openai/gpt-x', models: ['meta/llama-z', 'typo/model'] }), {
      kind: 'unknown_model',
      model: 'typo/model',
    });
  });

  it('accepts the canonical slug and uses models[0] as primary when model is absent', () => {
    assert.deepEqual(route({ model: 'openai/gpt-x-2025' }), [
      'openai/gpt-x@cheap',
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
    ]);
    assert.deepEqual(route({ models: ['meta/llama-z'] }), ['meta/llama-z@cheap', 'meta/llama-z@mid']);
  });

  it('puts each fallback model after the previous one, without duplicates', () => {
    assert.deepEqual(
      route({
        model: 'meta/llama-z',
        models: ['anthropic/claude-y', 'meta/llama-z', 'openai/gpt-x-2025', 'openai/gpt-x'],
      }),
      [
        'meta/llama-z@cheap',
        'meta/llama-z@mid',
        'anthropic/claude-y@cheap',
        'anthropic/claude-y@zdr',
        'openai/gpt-x@cheap',
        'openai/gpt-x@mid',
        'openai/gpt-x@zdr',
      ],
    );
  });

  it('sorts across models with sort.partition = none', () => {
    assert.deepEqual(
      route({ model: 'openai/gpt-x', models: ['meta/llama-z'], preferences: prefs({ sort: { partition: 'none' } }) }),
      ['meta/llama-z@cheap', 'meta/llama-z@mid', 'openai/gpt-x@cheap', 'openai/gpt-x@mid', 'openai/gpt-x@zdr'],
    );
  });

  it('skips a fallback model removed by a rule, and refuses only when every model is gone', () => {
    assert.deepEqual(route({ model: 'x/offline', models: ['meta/llama-z'] }), [
      'meta/llama-z@cheap',
      'meta/llama-z@mid',
    ]);
  });
});

describe('planRoute: availability', () => {
  it('answers no_endpoints with the reason when no provider is available', () => {
    assert.deepEqual(refusal({ model: 'x/offline' }), {
      kind: 'no_endpoints',
      reasons: ['provider "off": environment variable UNSET_KEY is not set'],
      models: ['x/offline'],
    });
  });
});

describe('planRoute: guardrail policy', () => {
  it('allowed_models matches canonical slugs and plain slugs', () => {
    const allowed = policy({ allowedModels: new Set(['openai/gpt-x-2025', 'meta/llama-z']) });
    assert.equal(route({ model: 'openai/gpt-x', policy: allowed }).length, 3);
    assert.deepEqual(route({ model: 'anthropic/claude-y', models: ['meta/llama-z'], policy: allowed }), [
      'meta/llama-z@cheap',
      'meta/llama-z@mid',
    ]);
    assert.deepEqual(refusal({ model: 'anthropic/claude-y', policy: allowed }), {
      kind: 'policy',
      rule: 'allowed_models',
      models: ['anthropic/claude-y'],
    });
  });

  it('ignored_models', () => {
    const ignored = policy({ ignoredModels: new Set(['openai/gpt-x-2025']) });
    assert.deepEqual(refusal({ model: 'openai/gpt-x', policy: ignored }), {
      kind: 'policy',
      rule: 'ignored_models',
      models: ['openai/gpt-x'],
    });
  });

  it('allowed_providers and ignored_providers', () => {
    assert.deepEqual(route({ model: 'openai/gpt-x', policy: policy({ allowedProviders: new Set(['zdr', 'mid']) }) }), [
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
    ]);
    assert.deepEqual(refusal({ model: 'meta/llama-z', policy: policy({ allowedProviders: new Set(['zdr']) }) }), {
      kind: 'policy',
      rule: 'allowed_providers',
      models: ['meta/llama-z'],
    });
    assert.deepEqual(route({ model: 'openai/gpt-x', policy: policy({ ignoredProviders: new Set(['CHEAP']) }) }), [
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
    ]);
    assert.deepEqual(
      refusal({ model: 'meta/llama-z', policy: policy({ ignoredProviders: new Set(['cheap', 'mid']) }) }),
      { kind: 'policy', rule: 'ignored_providers', models: ['meta/llama-z'] },
    );
  });

  it('a ZDR group enforced by policy keeps only zdr providers for models of that group', () => {
    const vendorC = policy({ zdrGroups: new Set<ZdrGroup>(['vendor_c']) });
    assert.deepEqual(route({ model: 'openai/gpt-x', policy: vendorC }), ['openai/gpt-x@zdr']);
    assert.deepEqual(route({ model: 'anthropic/claude-y', policy: vendorC }), [
      'anthropic/claude-y@cheap',
      'anthropic/claude-y@zdr',
    ]);
    const other = policy({ zdrGroups: new Set<ZdrGroup>(['other']) });
    assert.deepEqual(refusal({ model: 'meta/llama-z', policy: other }), {
      kind: 'policy',
      rule: 'zdr',
      models: ['meta/llama-z'],
    });
    assert.equal(route({ model: 'openai/gpt-x', policy: other }).length, 3);
  });

  it('blames availability before policy and policy before preferences', () => {
    assert.equal(
      refusal({ model: 'x/offline', policy: policy({ ignoredProviders: new Set(['off']) }) }).kind,
      'no_endpoints',
    );
    const r = refusal({
      model: 'meta/llama-z',
      policy: policy({ ignoredProviders: new Set(['cheap', 'mid']) }),
      preferences: prefs({ only: ['zdr'] }),
    });
    assert.deepEqual(r, { kind: 'policy', rule: 'ignored_providers', models: ['meta/llama-z'] });
  });
});

describe('planRoute: provider preferences', () => {
  it('order: listed providers first, in that order, then the rest by price', () => {
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ order: ['ZDR cloud', 'mid'] }) }), [
      'openai/gpt-x@zdr',
      'openai/gpt-x@mid',
      'openai/gpt-x@cheap',
    ]);
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ order: ['zdr'] }) }), [
      'openai/gpt-x@zdr',
      'openai/gpt-x@cheap',
      'openai/gpt-x@mid',
    ]);
  });

  it('allow_fallbacks: false keeps only the order providers, or only the first choice', () => {
    assert.deepEqual(
      route({ model: 'openai/gpt-x', preferences: prefs({ order: ['zdr', 'nobody'], allow_fallbacks: false }) }),
      ['openai/gpt-x@zdr'],
    );
    assert.deepEqual(
      route({ model: 'openai/gpt-x', models: ['meta/llama-z'], preferences: prefs({ allow_fallbacks: false }) }),
      ['openai/gpt-x@cheap', 'meta/llama-z@cheap'],
    );
    assert.deepEqual(
      refusal({ model: 'meta/llama-z', preferences: prefs({ order: ['zdr'], allow_fallbacks: false }) }),
      { kind: 'preference', rule: 'allow_fallbacks', models: ['meta/llama-z'] },
    );
  });

  it('only and ignore', () => {
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ only: ['mid', 'zdr'] }) }), [
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
    ]);
    assert.deepEqual(refusal({ model: 'meta/llama-z', preferences: prefs({ only: ['zdr'] }) }), {
      kind: 'preference',
      rule: 'only',
      models: ['meta/llama-z'],
    });
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ ignore: ['cheap'] }) }), [
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
    ]);
    assert.deepEqual(refusal({ model: 'meta/llama-z', preferences: prefs({ ignore: ['cheap', 'mid'] }) }), {
      kind: 'preference',
      rule: 'ignore',
      models: ['meta/llama-z'],
    });
  });

  it('zdr and data_collection', () => {
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ zdr: true }) }), ['openai/gpt-x@zdr']);
    assert.deepEqual(refusal({ model: 'meta/llama-z', preferences: prefs({ zdr: true }) }), {
      kind: 'preference',
      rule: 'zdr',
      models: ['meta/llama-z'],
    });
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ data_collection: 'deny' }) }), [
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
    ]);
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ data_collection: 'allow' }) }).length, 3);
    assert.deepEqual(
      refusal({ model: 'anthropic/claude-y', preferences: prefs({ ignore: ['zdr'], data_collection: 'deny' }) }),
      { kind: 'preference', rule: 'data_collection', models: ['anthropic/claude-y'] },
    );
  });

  it('quantizations (an endpoint without one is "unknown")', () => {
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ quantizations: ['fp8'] }) }), [
      'openai/gpt-x@mid',
    ]);
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ quantizations: ['unknown'] }) }), [
      'openai/gpt-x@cheap',
      'openai/gpt-x@zdr',
    ]);
    assert.deepEqual(refusal({ model: 'meta/llama-z', preferences: prefs({ quantizations: ['int4'] }) }), {
      kind: 'preference',
      rule: 'quantizations',
      models: ['meta/llama-z'],
    });
  });

  it('max_price in USD per million tokens, numbers or strings, with request price', () => {
    assert.deepEqual(
      route({ model: 'openai/gpt-x', preferences: prefs({ max_price: { prompt: 2, completion: '4' } }) }),
      ['openai/gpt-x@cheap', 'openai/gpt-x@mid'],
    );
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: prefs({ max_price: { prompt: '1' } }) }), [
      'openai/gpt-x@cheap',
    ]);
    assert.deepEqual(route({ model: 'meta/llama-z', preferences: prefs({ max_price: { request: 0.001 } }) }), [
      'meta/llama-z@mid',
    ]);
    assert.deepEqual(refusal({ model: 'openai/gpt-x', preferences: prefs({ max_price: { completion: 1.99 } }) }), {
      kind: 'preference',
      rule: 'max_price',
      models: ['openai/gpt-x'],
    });
    assert.deepEqual(
      route({ model: 'meta/llama-z', preferences: prefs({ max_price: { prompt: 0.1, completion: 0.1 } }) }),
      ['meta/llama-z@cheap'],
      'an exact cap passes despite float noise',
    );
  });

  it('require_parameters checks the parameters sent against each endpoint', () => {
    const p = prefs({ require_parameters: true });
    assert.deepEqual(
      route({ model: 'openai/gpt-x', preferences: p, requestParameters: ['tools', 'messages', 'model'] }),
      ['openai/gpt-x@cheap', 'openai/gpt-x@zdr'],
    );
    assert.deepEqual(route({ model: 'openai/gpt-x', preferences: p, requestParameters: ['temperature'] }).length, 3);
    assert.deepEqual(route({ model: 'openai/gpt-x', requestParameters: ['tools'] }).length, 3, 'off by default');
    assert.deepEqual(refusal({ model: 'openai/gpt-x', preferences: p, requestParameters: ['top_k'] }), {
      kind: 'preference',
      rule: 'require_parameters',
      models: ['openai/gpt-x'],
    });
  });

  it('enforce_distillable_text keeps only distillable models', () => {
    const p = prefs({ enforce_distillable_text: true });
    assert.deepEqual(route({ model: 'openai/gpt-x', models: ['meta/llama-z'], preferences: p }), [
      'meta/llama-z@cheap',
      'meta/llama-z@mid',
    ]);
    assert.deepEqual(refusal({ model: 'openai/gpt-x', preferences: p }), {
      kind: 'preference',
      rule: 'enforce_distillable_text',
      models: ['openai/gpt-x'],
    });
  });
});

describe('planRoute: health and sorting', () => {
  it('pushes breaker-open endpoints behind healthy ones, marked unhealthy', () => {
    const health = new EndpointHealth({ failureThreshold: 1 });
    health.recordFailure('cheap:cheap-model');
    const result = planRoute({ catalog, model: 'openai/gpt-x', health });
    assert.ok(result.ok);
    assert.deepEqual(
      result.candidates.map((c) => [c.provider.id, c.healthy]),
      [
        ['mid', true],
        ['zdr', true],
        ['cheap', false],
      ],
    );
    assert.deepEqual(route({ model: 'openai/gpt-x', health, preferences: prefs({ order: ['cheap', 'zdr'] }) }), [
      'openai/gpt-x@zdr',
      'openai/gpt-x@mid',
      'openai/gpt-x@cheap',
    ]);
  });

  it('sort by throughput or latency uses the EWMA, with endpoints without data after, by price', () => {
    const health = new EndpointHealth();
    health.recordLatency('zdr:zdr-model', 100, 90);
    health.recordLatency('mid:mid-model', 50, 30);
    assert.deepEqual(route({ model: 'openai/gpt-x', health, preferences: prefs({ sort: 'throughput' }) }), [
      'openai/gpt-x@zdr',
      'openai/gpt-x@mid',
      'openai/gpt-x@cheap',
    ]);
    assert.deepEqual(route({ model: 'openai/gpt-x', health, preferences: prefs({ sort: 'latency' }) }), [
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
      'openai/gpt-x@cheap',
    ]);
    assert.deepEqual(
      route({ model: 'openai/gpt-x', preferences: prefs({ sort: 'latency' }) }),
      ['openai/gpt-x@cheap', 'openai/gpt-x@mid', 'openai/gpt-x@zdr'],
      'no data: price',
    );
    assert.deepEqual(route({ model: 'openai/gpt-x', health, preferences: prefs({ sort: 'price' }) }), [
      'openai/gpt-x@cheap',
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
    ]);
  });

  it('preferred_max_latency and preferred_min_throughput deprioritise, never exclude', () => {
    const health = new EndpointHealth();
    health.recordLatency('cheap:cheap-model', 3000, 5);
    health.recordLatency('mid:mid-model', 500, 100);
    assert.deepEqual(route({ model: 'openai/gpt-x', health, preferences: prefs({ preferred_max_latency: 1 }) }), [
      'openai/gpt-x@mid',
      'openai/gpt-x@zdr',
      'openai/gpt-x@cheap',
    ]);
    assert.deepEqual(
      route({ model: 'openai/gpt-x', health, preferences: prefs({ preferred_min_throughput: { p90: 50 } }) }),
      ['openai/gpt-x@mid', 'openai/gpt-x@zdr', 'openai/gpt-x@cheap'],
    );
    assert.deepEqual(route({ model: 'meta/llama-z', health, preferences: prefs({ preferred_max_latency: 0.1 }) }), [
      'meta/llama-z@cheap',
      'meta/llama-z@mid',
    ]);
  });
});

describe('refusalToError', () => {
  it('maps each refusal kind to its status and names the rule', () => {
    const cases: [RouteRefusal, number, Record<string, unknown> | null][] = [
      [{ kind: 'missing_model' }, 400, { field: 'model' }],
      [{ kind: 'unknown_model', model: 'a/b' }, 404, { model: 'a/b', availability_code: 'model_not_found' }],
      [
        { kind: 'policy', rule: 'allowed_models', models: ['a/b'] },
        403,
        { rule: 'allowed_models', models: ['a/b'], availability_code: 'constraint_filtered' },
      ],
      [
        { kind: 'policy', rule: 'zdr', models: ['a/b'] },
        403,
        { rule: 'zdr', models: ['a/b'], availability_code: 'privacy_restricted' },
      ],
      [
        { kind: 'preference', rule: 'max_price', models: ['a/b'] },
        404,
        { rule: 'provider.max_price', models: ['a/b'], availability_code: 'constraint_filtered' },
      ],
      [
        { kind: 'no_endpoints', reasons: ['r'], models: ['a/b'] },
        503,
        { models: ['a/b'], reasons: ['r'], availability_code: 'no_endpoints' },
      ],
    ];
    for (const [input, status, metadata] of cases) {
      const error = refusalToError(input);
      assert.equal(error.status, status);
      assert.deepEqual(error.metadata, metadata);
    }
    assert.match(
      refusalToError({ kind: 'policy', rule: 'ignored_providers', models: [] }).message,
      /ignored_providers/,
    );
  });
});
