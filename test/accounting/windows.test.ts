import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memberAccount } from '../../src/domain/accounting/accounts.js';
import { limitWindow, windowList, windowListAt, windowsAt } from '../../src/domain/accounting/windows.js';

describe('spend windows', () => {
  it('names UTC day, Monday-started ISO week and month', () => {
    assert.deepEqual(windowsAt(new Date('2026-11-21T12:00:00Z')), {
      lifetime: 'lifetime',
      day: 'day:2026-11-21',
      week: 'week:2026-11-16',
      month: 'month:2026-11',
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

  it('hands out the same window strings all day and new ones from UTC midnight', () => {
    const morning = windowsAt(new Date('2026-11-22T00:00:00.000Z'));
    assert.equal(windowsAt(new Date('2026-11-22T23:59:59.999Z')), morning);
    assert.deepEqual(windowListAt(new Date('2026-11-22T12:00:00Z')), windowList(morning));
    assert.ok(Object.isFrozen(morning) && Object.isFrozen(windowListAt(new Date('2026-11-22T12:00:00Z'))));
    const monday = windowsAt(new Date('2026-11-23T00:00:00.000Z'));
    assert.deepEqual(monday, {
      lifetime: 'lifetime',
      day: 'day:2026-11-23',
      week: 'week:2026-11-23',
      month: 'month:2026-11',
    });
    // Going back in time (a test clock) recomputes too.
    assert.equal(windowsAt(new Date('2026-11-21T12:00:00Z')).day, 'day:2026-11-21');
    assert.equal(limitWindow('monthly', new Date('2026-12-01T00:00:00Z')), 'month:2026-12');
  });

  it("a member's account is one string per member", () => {
    assert.equal(memberAccount('user_a'), 'member:user_a');
    assert.equal(memberAccount(['user', 'a'].join('_')), memberAccount('user_a'));
    assert.notEqual(memberAccount('user_b'), memberAccount('user_a'));
  });
});
