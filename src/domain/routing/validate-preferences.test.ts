import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_PREFERENCES, validateProviderPreferences } from './index.js';

function errorsOf(input: unknown): string[] {
  const result = validateProviderPreferences(input);
  assert.equal(result.ok, false, JSON.stringify(input));
  return result.ok ? [] : result.errors.map((e) => e.field);
}

describe('validateProviderPreferences', () => {
  it('gives the defaults for a missing or null provider object', () => {
    assert.deepEqual(validateProviderPreferences(undefined), { ok: true, value: DEFAULT_PREFERENCES });
    assert.deepEqual(validateProviderPreferences(null), { ok: true, value: DEFAULT_PREFERENCES });
    assert.deepEqual(validateProviderPreferences({}), { ok: true, value: DEFAULT_PREFERENCES });
  });

  it('normalises nulls to defaults', () => {
    const result = validateProviderPreferences({
      allow_fallbacks: null,
      data_collection: null,
      enforce_distillable_text: null,
      ignore: null,
      only: null,
      order: null,
      preferred_max_latency: null,
      preferred_min_throughput: null,
      quantizations: null,
      require_parameters: null,
      sort: null,
      zdr: null,
      max_price: null,
    });
    assert.deepEqual(result, { ok: true, value: DEFAULT_PREFERENCES });
  });

  it('reads every field', () => {
    const result = validateProviderPreferences({
      order: ['OpenAI', ' groq '],
      only: ['openai'],
      ignore: ['together'],
      allow_fallbacks: false,
      sort: { by: 'throughput', partition: 'none' },
      max_price: { prompt: '1.5', completion: 2, request: 0 },
      zdr: true,
      data_collection: 'deny',
      require_parameters: true,
      quantizations: ['fp8', 'int4'],
      preferred_max_latency: 2,
      preferred_min_throughput: { p90: 50, p50: null },
      enforce_distillable_text: true,
    });
    assert.deepEqual(result, {
      ok: true,
      value: {
        order: ['OpenAI', 'groq'],
        only: ['openai'],
        ignore: ['together'],
        allowFallbacks: false,
        sort: { by: 'throughput', partition: 'none' },
        maxPrice: { prompt: 1.5, completion: 2, request: 0 },
        zdr: true,
        dataCollection: 'deny',
        requireParameters: true,
        quantizations: ['fp8', 'int4'],
        preferredMaxLatency: { p50: 2 },
        preferredMinThroughput: { p90: 50 },
        enforceDistillableText: true,
      },
    });
  });

  it('accepts sort as a string or an object with defaults', () => {
    const s = (sort: unknown) => {
      const r = validateProviderPreferences({ sort });
      return r.ok ? r.value.sort : undefined;
    };
    assert.deepEqual(s('price'), { by: 'price', partition: 'model' });
    assert.deepEqual(s('exacto'), { by: 'exacto', partition: 'model' });
    assert.deepEqual(s({}), { by: null, partition: 'model' });
    assert.deepEqual(s({ by: null, partition: null }), { by: null, partition: 'model' });
    assert.deepEqual(s({ partition: 'none' }), { by: null, partition: 'none' });
  });

  it('names the field of every error', () => {
    assert.deepEqual(errorsOf('openai'), ['provider']);
    assert.deepEqual(errorsOf([]), ['provider']);
    assert.deepEqual(errorsOf({ orderr: ['a'] }), ['provider.orderr']);
    assert.deepEqual(errorsOf({ order: 'openai' }), ['provider.order']);
    assert.deepEqual(errorsOf({ only: ['a', 3, ''] }), ['provider.only[1]', 'provider.only[2]']);
    assert.deepEqual(errorsOf({ allow_fallbacks: 'no' }), ['provider.allow_fallbacks']);
    assert.deepEqual(errorsOf({ zdr: 1 }), ['provider.zdr']);
    assert.deepEqual(errorsOf({ data_collection: 'never' }), ['provider.data_collection']);
    assert.deepEqual(errorsOf({ sort: 'fastest' }), ['provider.sort']);
    assert.deepEqual(errorsOf({ sort: { by: 'x', partition: 'y', z: 1 } }), [
      'provider.sort.z',
      'provider.sort.by',
      'provider.sort.partition',
    ]);
    assert.deepEqual(errorsOf({ max_price: { prompt: 'cheap', tokens: 1, completion: -1 } }), [
      'provider.max_price.tokens',
      'provider.max_price.prompt',
      'provider.max_price.completion',
    ]);
    assert.deepEqual(errorsOf({ max_price: 5 }), ['provider.max_price']);
    assert.deepEqual(errorsOf({ quantizations: ['fp8', 'fp7'] }), ['provider.quantizations[1]']);
    assert.deepEqual(errorsOf({ preferred_max_latency: -1 }), ['provider.preferred_max_latency']);
    assert.deepEqual(errorsOf({ preferred_min_throughput: { p95: 1, p50: 'x' } }), [
      'provider.preferred_min_throughput.p95',
      'provider.preferred_min_throughput.p50',
    ]);
    assert.deepEqual(errorsOf({ require_parameters: 'true', enforce_distillable_text: 0 }), [
      'provider.require_parameters',
      'provider.enforce_distillable_text',
    ]);
  });
});
