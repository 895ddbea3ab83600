import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isGatewayError } from '../../errors/index.js';
import { PresetCache } from './cache.js';
import { checkConfig, versionFromBody } from './config.js';
import { mergePreset, unionTools } from './merge.js';
import { isPresetSlug, presetReference } from './reference.js';
import type { ResolvedPreset } from './types.js';

const field400 = (fn: () => unknown, field: string) =>
  assert.throws(fn, (e: unknown) => isGatewayError(e) && e.status === 400 && e.metadata?.field === field);

describe('preset references', () => {
  it('finds the three forms and strips the preset part from model', () => {
    assert.deepEqual(presetReference({ model: '@preset/email-bot' }), { slug: 'email-bot', model: undefined });
    assert.deepEqual(presetReference({ model: 'openai/gpt-4', preset: 'email-bot' }), {
      slug: 'email-bot',
      model: 'openai/gpt-4',
    });
    assert.deepEqual(presetReference({ model: 'openai/gpt-4@preset/email-bot' }), {
      slug: 'email-bot',
      model: 'openai/gpt-4',
    });
    assert.deepEqual(presetReference({ model: '@preset/a', preset: 'a' }), { slug: 'a', model: undefined });
    assert.equal(presetReference({ model: 'openai/gpt-4' }), null);
  });

  it('rejects malformed or contradicting references with a 400 naming the field', () => {
    field400(() => presetReference({ model: '@preset/' }), 'model');
    field400(() => presetReference({ model: '@preset/a b' }), 'model');
    field400(() => presetReference({ preset: 'a/b' }), 'preset');
    field400(() => presetReference({ model: '@preset/a', preset: 'b' }), 'preset');
    field400(() => presetReference({ models: ['x/y', '@preset/a'] }), 'models[1]');
  });

  it('slugs are URL-safe unreserved characters, not dot segments', () => {
    for (const ok of ['a', 'Email_Bot-2.v~1', 'x'.repeat(100)]) assert.equal(isPresetSlug(ok), true, ok);
    for (const bad of ['', '.', '..', 'a b', 'a/b', 'é', 'a%20', 'x'.repeat(101), 'a?b'])
      assert.equal(isPresetSlug(bad), false, bad);
  });
});

describe('preset config', () => {
  const catalog = {
    findModel: (slug: string) => (['openai/gpt-test', 'anthropic/claude-test'].includes(slug) ? {} : undefined),
  };

  it('keeps preset fields and the system prompt, drops per-call fields', () => {
    const { config, systemPrompt } = versionFromBody({
      model: 'openai/gpt-test',
      temperature: 0.3,
      provider: { sort: 'price' },
      stream: true,
      user: 'u1',
      metadata: { a: 'b' },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
      ],
    });
    assert.deepEqual(config, { model: 'openai/gpt-test', temperature: 0.3, provider: { sort: 'price' } });
    assert.equal(systemPrompt, 'Be brief.\n\nAnswer in French.');
    assert.equal(versionFromBody({ model: 'x' }).systemPrompt, '');
  });

  it('rejects unknown models, out-of-range values, bad provider preferences and nested presets', () => {
    checkConfig({ model: 'openai/gpt-test', temperature: 2, models: ['anthropic/claude-test'] }, catalog);
    field400(() => checkConfig({ model: 'nope/none' }, catalog), 'model');
    field400(() => checkConfig({ models: ['openai/gpt-test', 'nope/none'] }, catalog), 'models[1]');
    field400(() => checkConfig({ temperature: 2.5 }, catalog), 'temperature');
    field400(() => checkConfig({ top_p: -1 }, catalog), 'top_p');
    field400(() => checkConfig({ max_tokens: 'ten' }, catalog), 'max_tokens');
    field400(() => checkConfig({ provider: { sort: 'fastest-ever' } }, catalog), 'provider.sort');
    field400(() => checkConfig({ model: '@preset/other' }, catalog), 'model');
    field400(() => checkConfig({}, catalog, { preset: 'other' }), 'preset');
  });
});

describe('preset merge', () => {
  const version = {
    config: {
      model: 'openai/gpt-test',
      temperature: 0.2,
      max_tokens: 50,
      tools: [{ type: 'function', function: { name: 'a' } }, { type: 'web_search' }],
    },
    systemPrompt: 'Be brief.',
  };

  it('fills what the request leaves out; request fields (null too) win; system prompt first', () => {
    const body: Record<string, unknown> = {
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.9,
      max_tokens: null,
    };
    const merged = mergePreset(body, version);
    assert.equal(merged.model, 'openai/gpt-test');
    assert.equal(merged.temperature, 0.9);
    assert.equal(merged.max_tokens, null);
    assert.deepEqual(merged.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
    (merged.tools as { type: string }[])[0] = { type: 'changed' };
    assert.equal(version.config.tools[0]?.type, 'function', 'the cached config is never shared with a call');
  });

  it('unions tools: preset order, request entries replace by identity, request-only tools last', () => {
    const preset = [
      { type: 'function', function: { name: 'a', description: 'preset' } },
      { type: 'web_search', max: 1 },
    ];
    const request = [
      { type: 'function', function: { name: 'b' } },
      { type: 'web_search', max: 5 },
      { type: 'function', function: { name: 'a', description: 'request' } },
    ];
    assert.deepEqual(unionTools(preset, request), [
      { type: 'function', function: { name: 'a', description: 'request' } },
      { type: 'web_search', max: 5 },
      { type: 'function', function: { name: 'b' } },
    ]);
  });
});

describe('preset cache', () => {
  const resolved = (id: string): ResolvedPreset => ({
    preset: {
      id,
      workspaceId: 'w',
      slug: 's',
      name: 's',
      description: null,
      status: 'active',
      statusUpdatedAt: null,
      creatorUserId: 'u',
      designatedVersionId: 'v',
      latestVersion: 1,
      createdAt: '',
      updatedAt: '',
    },
    version: null,
  });

  it('serves from memory, invalidates on writes, revalidates after the bound, single-flights loads', async () => {
    let loads = 0;
    let now = 0;
    let value: ResolvedPreset | null = null;
    const cache = new PresetCache({
      load: () => Promise.resolve((loads++, value)),
      revalidateAfterMs: 1000,
      now: () => now,
    });
    assert.equal(await cache.get('w', 's'), null);
    assert.equal(await cache.get('w', 's'), null);
    assert.equal(loads, 1, 'misses are cached too');
    value = resolved('p1');
    cache.invalidate('p1');
    await Promise.all([cache.get('w', 's'), cache.get('w', 's')]);
    assert.equal(loads, 2, 'a write drops cached misses; concurrent gets share one load');
    now = 1500;
    await cache.get('w', 's');
    assert.equal(loads, 3, 'revalidated after the bound');
  });

  it('trusts entries while a change feed is live and drops them on its notifications', async () => {
    let loads = 0;
    let handler: (id: string | null) => void = () => undefined;
    let state: 'live' | 'down' = 'live';
    const changes = {
      publish: () => Promise.resolve(),
      subscribe: (_t: 'presets', h: (id: string | null) => void) => ((handler = h), () => undefined),
      state: () => state,
      refresh: () => undefined,
    };
    let now = 0;
    const cache = new PresetCache({
      load: () => Promise.resolve((loads++, resolved('p1'))),
      revalidateAfterMs: 10,
      changes,
      now: () => now,
    });
    await cache.get('w', 's');
    now = 1000;
    await cache.get('w', 's');
    assert.equal(loads, 1);
    handler('p1');
    await cache.get('w', 's');
    assert.equal(loads, 2);
    state = 'down';
    now = 5000;
    await cache.get('w', 's');
    assert.equal(loads, 3, 'a feed that is down falls back to revalidation');
  });
});
