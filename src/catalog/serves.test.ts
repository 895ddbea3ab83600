import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isGatewayError } from '../errors/index.js';
import { CatalogConfigError, defaultCatalog, parseCatalogText, requireServes } from './index.js';

const YAML = `providers:
  - { id: up, kind: openai, base_url: http://127.0.0.1:9/v1 }
  - { id: claude, kind: anthropic, base_url: http://127.0.0.1:9/v1 }
models:
  - slug: a/chat
    context_length: 1000
    endpoints: [{ provider: up, upstream_model: c, pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - slug: a/embed
    context_length: 8192
    serves: [embeddings]
    endpoints: [{ provider: up, upstream_model: e, pricing: { prompt: 0.00000002, completion: 0 } }]
  - slug: a/both
    context_length: 8192
    serves: [chat, embeddings]
    endpoints: [{ provider: up, upstream_model: b, pricing: { prompt: 0.000001, completion: 0.000002 } }]
`;

const parse = (text: string) => parseCatalogText(text, { fileName: 'c.yaml', env: {}, defaultCreated: 1 });

describe('catalog: serves', () => {
  it('defaults to chat; an embeddings-only model outputs embeddings', () => {
    const catalog = parse(YAML);
    assert.deepEqual(catalog.findModel('a/chat')?.serves, ['chat']);
    assert.deepEqual(catalog.findModel('a/chat')?.outputModalities, ['text']);
    assert.deepEqual(catalog.findModel('a/embed')?.serves, ['embeddings']);
    assert.deepEqual(catalog.findModel('a/embed')?.outputModalities, ['embeddings']);
    assert.deepEqual(catalog.findModel('a/both')?.outputModalities, ['text']);
  });

  it('rejects unknown services, an empty list and embeddings on an anthropic endpoint', () => {
    const lines = (text: string): string[] => {
      try {
        parse(text);
      } catch (error) {
        assert.ok(error instanceof CatalogConfigError);
        return error.lines();
      }
      return assert.fail('expected a CatalogConfigError');
    };
    assert.match(lines(YAML.replace('serves: [embeddings]', 'serves: [images]')).join('\n'), /models\[1\]\.serves/);
    assert.match(lines(YAML.replace('serves: [embeddings]', 'serves: []')).join('\n'), /models\[1\]\.serves/);
    const anthropic = YAML.replace('provider: up, upstream_model: e', 'provider: claude, upstream_model: e');
    assert.match(
      lines(anthropic).join('\n'),
      /models\[1\]\.serves: provider "claude" \(kind anthropic\) cannot serve embeddings/,
    );
  });

  it('requireServes: 400 naming the model for the wrong kind; unknown models are left to routing', () => {
    const catalog = parse(YAML);
    const refusal = (slugs: string[], service: 'chat' | 'embeddings') => {
      try {
        requireServes(catalog, slugs, service);
        return null;
      } catch (error) {
        assert.ok(isGatewayError(error));
        return error;
      }
    };
    const chat = refusal(['a/embed'], 'chat');
    assert.equal(chat?.status, 400);
    assert.match(chat?.message ?? '', /"a\/embed" does not serve chat/);
    const embed = refusal(['a/both', 'a/chat'], 'embeddings');
    assert.match(embed?.message ?? '', /"a\/chat" does not serve embeddings/);
    assert.equal(refusal(['a/both'], 'chat'), null);
    assert.equal(refusal(['nobody/unknown'], 'embeddings'), null);
  });

  it('the built-in catalog has an embedding model', () => {
    assert.deepEqual(defaultCatalog().findModel('demo/embed')?.serves, ['embeddings']);
  });
});
