import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadServerConfig } from './env.js';

describe('loadServerConfig: SWITCHYARD_HEAP_GROWTH_PERCENT', () => {
  it('defaults to 0 (V8 heuristics), accepts other integers', () => {
    assert.equal(loadServerConfig({}).heapGrowthPercent, 0);
    assert.equal(loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: '50' }).heapGrowthPercent, 50);
    assert.equal(loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: '100' }).heapGrowthPercent, 100);
  });

  it('refuses what is not an integer from 0 to 1000', () => {
    for (const bad of ['-1', '1001', '1.5', 'lots']) {
      assert.throws(() => loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: bad }), ConfigError, bad);
    }
  });
});
