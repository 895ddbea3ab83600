import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeCost, newGenerationId } from '../../src/domain/accounting/cost.js';
import { limitWindow, windowsAt } from '../../src/domain/accounting/windows.js';

describe('spend windows', () => {
  it('names UTC day, Monday-started ISO week and month', () => {
    assert.deepEqual(windowsAt(new Date('2026-11-21T12:00:00Z')), {
      lifetime: 'lifetime', day: 'day:2026-11-21', week: 'week:2026-11-16', month: 'month:2026-11',
    });
    // Sunday belongs to the week that started on the Monday before.
    assert.equal(windowsAt(new Date('2026-11-22T23:59:59.999Z')).week, 'week:2026-11-16');
    assert.equal(windowsAt(new Date('2026-11-23T00:00:00Z')).week, 'week:2026-11-23');
    // Across a year boundary: Friday 2027-01-01 is in the week of Monday 2026-12-28.
    assert.equal(windowsAt(new Date('2027-01-01T10:00:00Z')).week, 'week:2026-12-28');
    // UTC, not local time.
    assert.equal(windowsAt(new Date('2026-11-21T23:30:00-05:00')).day, 'day:2026-11-22');
  });

  it('a key checks its limit in its reset window', () => {
    const now = new Date('2026-02-03T04:05:06Z');
    assert.equal(limitWindow(null, now), 'lifetime');
    assert.equal(limitWindow('daily', now), 'day:2026-02-03');
    assert.equal(limitWindow('weekly', now), 'week:2026-02-02');
    assert.equal(limitWindow('monthly', now), 'month:2026-02');
  });
});

describe('cost', () => {
  it('prompt tokens × prompt price + completion tokens × completion price', () => {
    const c = computeCost({ prompt: 0.0000025, completion: 0.00001 }, 1000, 200);
    assert.ok(Math.abs(c.promptCostUsd - 0.0025) < 1e-12);
    assert.ok(Math.abs(c.completionCostUsd - 0.002) < 1e-12);
    assert.ok(Math.abs(c.costUsd - 0.0045) < 1e-12);
    assert.deepEqual(computeCost({ prompt: Number.NaN, completion: -1 }, -5, 10), { promptCostUsd: 0, completionCostUsd: 0, costUsd: 0 });
  });

  it('generation ids look like OpenRouter ones and do not repeat', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const ids = new Set(Array.from({ length: 1000 }, () => newGenerationId(now)));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.match(id, /^gen-1795262400-[A-Za-z0-9]{20}$/);
  });
});
