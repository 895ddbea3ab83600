import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlotMap } from './slot-map.js';

describe('SlotMap', () => {
  it('keeps one value per (account, window), apart from every other pair', () => {
    const map = new SlotMap<number>();
    map.set('a', 'lifetime', 1);
    map.set('a', 'day:2026-11-22', 2);
    map.set('b', 'lifetime', 3);
    // No joined key: an account containing the old separator cannot collide with another pair.
    map.set('a\nlifetime', 'x', 4);
    assert.equal(map.get('a', 'lifetime'), 1);
    assert.equal(map.get('a', 'day:2026-11-22'), 2);
    assert.equal(map.get('b', 'lifetime'), 3);
    assert.equal(map.get('a\nlifetime', 'x'), 4);
    assert.equal(map.get('b', 'day:2026-11-22'), undefined);
    map.set('a', 'lifetime', 5);
    assert.deepEqual(map.values().sort(), [2, 3, 4, 5]);
  });

  it('deletes a pair (and reports whether it was there); values() is a snapshot', () => {
    const map = new SlotMap<string>();
    map.set('a', 'w1', 'x');
    map.set('a', 'w2', 'y');
    for (const value of map.values()) if (value === 'x') map.delete('a', 'w1');
    assert.equal(map.delete('a', 'w1'), false);
    assert.equal(map.delete('a', 'w2'), true);
    assert.equal(map.delete('nobody', 'w2'), false);
    assert.deepEqual(map.values(), []);
    map.set('a', 'w1', 'z');
    map.clear();
    assert.equal(map.get('a', 'w1'), undefined);
  });
});
