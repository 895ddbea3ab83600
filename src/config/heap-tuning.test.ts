import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heapGrowthFlag } from './heap-tuning.js';

describe('heapGrowthFlag', () => {
  it("sets V8's growth percent, rounded, for a positive setting", () => {
    assert.equal(heapGrowthFlag(50, ''), '--heap-growing-percent=50');
    assert.equal(heapGrowthFlag(37.6, '--max-old-space-size=4096'), '--heap-growing-percent=38');
  });

  it("leaves V8's heuristics at 0", () => {
    assert.equal(heapGrowthFlag(0, ''), null);
  });

  it('leaves a growth the launch already names, with dashes or underscores', () => {
    assert.equal(heapGrowthFlag(50, '--heap-growing-percent=100'), null);
    assert.equal(heapGrowthFlag(50, '--inspect --heap_growing_percent=20'), null);
  });
});
