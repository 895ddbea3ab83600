import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogConfigError, parseCatalogText } from './index.js';

const HEAD = `providers:
  - { id: demo, kind: demo }
models:
`;

function model(slug: string, extra = ''): string {
  return `  - slug: ${slug}
    context_length: 1000${extra}
    endpoints:
      - { provider: demo, upstream_model: echo, pricing: { prompt: 0, completion: 0 } }
`;
}

function issuesOf(text: string): string[] {
  try {
    parseCatalogText(text, { fileName: 'config.yaml', env: {}, defaultCreated: 1 });
  } catch (error) {
    assert.ok(error instanceof CatalogConfigError);
    return error.lines();
  }
  assert.fail('expected a CatalogConfigError');
}

describe('model aliases', () => {
  it('resolve to the model by exact and case-insensitive name; the slug stays the real one', () => {
    const catalog = parseCatalogText(
      HEAD +
        model('anthropic/claude-sonnet-4.5', '\n    aliases: [claude-sonnet-4-5-20250929, claude-sonnet-4-5]') +
        model('openai/gpt-4o-mini', '\n    aliases: ["gpt-4o-mini"]'),
      { fileName: 'c.yaml', env: {}, defaultCreated: 1 },
    );
    const found = catalog.findModel('claude-sonnet-4-5-20250929');
    assert.equal(found?.slug, 'anthropic/claude-sonnet-4.5');
    assert.deepEqual(found.aliases, ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5']);
    assert.equal(catalog.findModel('Claude-Sonnet-4-5')?.slug, 'anthropic/claude-sonnet-4.5');
    assert.equal(catalog.findModel('gpt-4o-mini')?.slug, 'openai/gpt-4o-mini');
    assert.equal(catalog.findModel('gpt-4o'), undefined);
    assert.equal(catalog.zdrGroupOf('claude-sonnet-4-5'), 'vendor_a');
    assert.deepEqual(catalog.findModel('openai/gpt-4o-mini')?.aliases, ['gpt-4o-mini']);
  });

  it('default to none', () => {
    const catalog = parseCatalogText(HEAD + model('a/b'), { fileName: 'c.yaml', env: {}, defaultCreated: 1 });
    assert.deepEqual(catalog.findModel('a/b')?.aliases, []);
  });

  it('must be unique across the catalog and never another model slug, reported with file:line', () => {
    const lines = issuesOf(
      HEAD +
        model('a/one', '\n    aliases: [shared, b/two]') + // lines 4-8
        model('b/two', '\n    aliases: [SHARED, "b/two"]') + // lines 9-13
        model('c/three', '\n    aliases: [c/three, ""]'),
    );
    assert.deepEqual(lines, [
      'config.yaml:16: models[2].aliases[1]: must be a non-empty string, got string ""',
      'config.yaml:6: models[0].aliases[1]: alias "b/two" is already the slug of models[1]',
      'config.yaml:11: models[1].aliases[0]: alias "SHARED" is already an alias of models[0]',
      'config.yaml:11: models[1].aliases[1]: alias "b/two" is already the slug of this model',
      'config.yaml:16: models[2].aliases[0]: alias "c/three" is already the slug of this model',
    ]);
  });

  it('must be a list of strings', () => {
    assert.deepEqual(issuesOf(HEAD + model('a/one', '\n    aliases: claude')), [
      'config.yaml:6: models[0].aliases: must be a list, got string "claude"',
    ]);
  });
});
