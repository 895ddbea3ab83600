import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogFromObject } from '../../catalog/index.js';
import { EndpointHealth, OPEN_POLICY, planRoute, validateProviderPreferences, type HealthView } from './index.js';

const M = 1e-6;

/** Two providers serving one model, `first` the cheaper; a third model for the fallback lists. */
function catalogWith(prices: { cheap: number; mid: number }) {
  return catalogFromObject(
    {
      providers: [
        { id: 'cheap', kind: 'openai', base_url: 'https://cheap.example/v1' },
        { id: 'mid', kind: 'openai', base_url: 'https://mid.example/v1' },
      ],
      models: [
        {
          slug: 'a/one',
          context_length: 1000,
          endpoints: [
            { provider: 'cheap', upstream_model: 'one', pricing: { prompt: prices.cheap * M, completion: 0 } },
            { provider: 'mid', upstream_model: 'one', pricing: { prompt: prices.mid * M, completion: 0 } },
          ],
        },
        {
          slug: 'b/two',
          context_length: 1000,
          endpoints: [{ provider: 'mid', upstream_model: 'two', pricing: { prompt: M, completion: 0 } }],
        },
      ],
    },
    { env: {}, defaultCreated: 1 },
  );
}

function served(result: ReturnType<typeof planRoute>): string[] {
  assert.ok(result.ok, JSON.stringify(!result.ok && result.refusal));
  return result.candidates.map((c) => `${c.model.slug}@${c.provider.id}${c.healthy ? '' : '!'}`);
}

describe('planRoute: the plan kept between calls', () => {
  it('gives the same plan for the same snapshot, policy and models, shared while every endpoint is healthy', () => {
    const catalog = catalogWith({ cheap: 1, mid: 2 });
    const first = planRoute({ catalog, model: 'a/one' });
    const second = planRoute({ catalog, model: 'a/one' });
    assert.deepEqual(served(first), ['a/one@cheap', 'a/one@mid']);
    assert.deepEqual(served(second), served(first));
    assert.ok(first.ok && second.ok && first.candidates === second.candidates);
    assert.ok(Object.isFrozen(second.ok && second.candidates));
  });

  it('a catalog reload (a new snapshot) yields the new catalog’s plan, the old snapshot keeps its own', () => {
    const before = catalogWith({ cheap: 1, mid: 2 });
    const after = catalogWith({ cheap: 3, mid: 2 });
    assert.deepEqual(served(planRoute({ catalog: before, model: 'a/one' })), ['a/one@cheap', 'a/one@mid']);
    const reloaded = planRoute({ catalog: after, model: 'a/one' });
    assert.deepEqual(served(reloaded), ['a/one@mid', 'a/one@cheap']);
    assert.ok(reloaded.ok && reloaded.candidates.every((c) => after.findProvider(c.provider.id) === c.provider));
    assert.deepEqual(served(planRoute({ catalog: before, model: 'a/one' })), ['a/one@cheap', 'a/one@mid']);
  });

  it('a policy change (a new policy object) yields a new plan, and a refusal when it removes everything', () => {
    const catalog = catalogWith({ cheap: 1, mid: 2 });
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', policy: OPEN_POLICY })), ['a/one@cheap', 'a/one@mid']);
    const narrowed = { ...OPEN_POLICY, ignoredProviders: new Set(['cheap']) };
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', policy: narrowed })), ['a/one@mid']);
    const closed = { ...OPEN_POLICY, allowedModels: new Set(['b/two']) };
    const refused = planRoute({ catalog, model: 'a/one', policy: closed });
    assert.ok(!refused.ok);
    assert.deepEqual(refused.refusal, { kind: 'policy', rule: 'allowed_models', models: ['a/one'] });
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', policy: OPEN_POLICY })), ['a/one@cheap', 'a/one@mid']);
  });

  it('health changes still reorder a kept plan, and a closed or half-open breaker puts it back', () => {
    const catalog = catalogWith({ cheap: 1, mid: 2 });
    let now = 1_000;
    const health = new EndpointHealth({ failureThreshold: 1, cooldownMs: 500, now: () => now });
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', health })), ['a/one@cheap', 'a/one@mid']);
    health.recordFailure('cheap:one');
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', health })), ['a/one@mid', 'a/one@cheap!']);
    now += 500; // half-open: routed normally again
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', health })), ['a/one@cheap', 'a/one@mid']);
    health.recordFailure('cheap:one');
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', health })), ['a/one@mid', 'a/one@cheap!']);
    health.recordSuccess('cheap:one');
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', health })), ['a/one@cheap', 'a/one@mid']);
  });

  it('an unhealthy endpoint stays behind the healthy ones of its own model only (model order first)', () => {
    const catalog = catalogWith({ cheap: 1, mid: 2 });
    const health: HealthView = {
      isHealthy: (key) => key !== 'mid:two',
      latencyMs: () => undefined,
      throughput: () => undefined,
    };
    const models = ['b/two', 'a/one'];
    assert.deepEqual(served(planRoute({ catalog, models })), ['b/two@mid', 'a/one@cheap', 'a/one@mid']);
    assert.deepEqual(served(planRoute({ catalog, models, health })), ['b/two@mid!', 'a/one@cheap', 'a/one@mid']);
  });

  it('keeps each requested-model list apart, and provider preferences are planned per call', () => {
    const catalog = catalogWith({ cheap: 1, mid: 2 });
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', models: ['b/two'] })), [
      'a/one@cheap',
      'a/one@mid',
      'b/two@mid',
    ]);
    assert.deepEqual(served(planRoute({ catalog, models: ['b/two', 'a/one'] })), [
      'b/two@mid',
      'a/one@cheap',
      'a/one@mid',
    ]);
    assert.deepEqual(served(planRoute({ catalog, model: 'b/two' })), ['b/two@mid']);
    const order = validateProviderPreferences({ order: ['mid'] });
    assert.ok(order.ok);
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one', preferences: order.value })), [
      'a/one@mid',
      'a/one@cheap',
    ]);
    assert.deepEqual(served(planRoute({ catalog, model: 'a/one' })), ['a/one@cheap', 'a/one@mid']);
  });

  it('stays correct past the number of requested-model lists it keeps', () => {
    const catalog = catalogWith({ cheap: 1, mid: 2 });
    for (let i = 1; i <= 100; i++) {
      const oneFirst = ['a/one', ...Array<string>(i).fill('b/two')];
      const twoFirst = ['b/two', ...Array<string>(i).fill('a/one')];
      assert.deepEqual(served(planRoute({ catalog, models: oneFirst })), ['a/one@cheap', 'a/one@mid', 'b/two@mid']);
      assert.deepEqual(served(planRoute({ catalog, models: twoFirst })), ['b/two@mid', 'a/one@cheap', 'a/one@mid']);
      assert.deepEqual(served(planRoute({ catalog, model: 'b/two' })), ['b/two@mid']);
    }
  });
});
