import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogHolder } from './holder.js';
import { catalogFromObject } from './load-catalog.js';

function catalog(options: { baseUrl: string; models: string[]; keyEnv?: string }) {
  return catalogFromObject(
    {
      providers: [
        { id: 'up', kind: 'openai', base_url: options.baseUrl, api_key_env: options.keyEnv ?? 'UP_KEY' },
        { id: 'demo', kind: 'demo' },
      ],
      models: options.models.map((slug) => ({
        slug,
        context_length: 1000,
        endpoints: [
          { provider: 'up', upstream_model: slug, pricing: { prompt: 0, completion: 0 } },
          { provider: 'demo', upstream_model: 'echo', pricing: { prompt: 0, completion: 0 } },
        ],
      })),
    },
    { env: { UP_KEY: 'k1', OTHER_KEY: 'k2' } },
  );
}

describe('CatalogHolder', () => {
  it('swaps the snapshot in one step: a reader holding the old one keeps it', () => {
    const first = catalog({ baseUrl: 'http://a', models: ['x/one'] });
    const holder = new CatalogHolder(first);
    const held = holder.current();
    const second = catalog({ baseUrl: 'http://a', models: ['x/two'] });
    holder.replace(second);
    assert.equal(held, first);
    assert.equal(held.findModel('x/one')?.slug, 'x/one');
    assert.equal(holder.current(), second);
    assert.equal(holder.current().findModel('x/one'), undefined);
  });

  it('tells listeners which models and endpoints were added, removed or now reach another upstream', () => {
    const holder = new CatalogHolder(catalog({ baseUrl: 'http://a', models: ['x/one', 'x/two'] }));
    const seen: string[][] = [];
    holder.onChange((c) =>
      seen.push([...c.addedModels, '|', ...c.removedModels, '|', ...c.removedEndpoints, '|', ...c.changedEndpoints]),
    );
    holder.replace(catalog({ baseUrl: 'http://a', models: ['x/two', 'x/three'] }));
    assert.deepEqual(seen.at(-1), ['x/three', '|', 'x/one', '|', 'up:x/one', '|']);
    holder.replace(catalog({ baseUrl: 'http://b', models: ['x/two', 'x/three'] }));
    assert.deepEqual(seen.at(-1), ['|', '|', '|', 'up:x/two', 'up:x/three']);
    const change = holder.replace(catalog({ baseUrl: 'http://b', models: ['x/two', 'x/three'], keyEnv: 'OTHER_KEY' }));
    assert.deepEqual(change.changedEndpoints, ['up:x/two', 'up:x/three']);
    assert.deepEqual([...change.endpointKeys].sort(), ['demo:echo', 'up:x/three', 'up:x/two']);
  });
});
