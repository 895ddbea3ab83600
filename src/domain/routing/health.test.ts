import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EndpointHealth } from './index.js';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

describe('EndpointHealth breaker', () => {
  it('opens after the threshold of failures within the window, then half-opens after the cooldown', () => {
    const c = clock();
    const h = new EndpointHealth({ failureThreshold: 3, failureWindowMs: 10_000, cooldownMs: 5_000, now: c.now });
    assert.equal(h.state('a'), 'closed');
    h.recordFailure('a');
    h.recordFailure('a');
    assert.equal(h.isHealthy('a'), true);
    h.recordFailure('a');
    assert.equal(h.state('a'), 'open');
    assert.equal(h.isHealthy('a'), false);
    assert.equal(h.isHealthy('b'), true);
    c.advance(4_999);
    assert.equal(h.state('a'), 'open');
    c.advance(1);
    assert.equal(h.state('a'), 'half_open');
    assert.equal(h.isHealthy('a'), true);
  });

  it('closes on a success in half-open and reopens on a failure', () => {
    const c = clock();
    const h = new EndpointHealth({ failureThreshold: 2, cooldownMs: 1_000, now: c.now });
    h.recordFailure('a');
    h.recordFailure('a');
    c.advance(1_000);
    assert.equal(h.state('a'), 'half_open');
    h.recordFailure('a');
    assert.equal(h.state('a'), 'open', 'one failure in half-open reopens');
    c.advance(999);
    assert.equal(h.state('a'), 'open', 'for a full cooldown from the reopening');
    c.advance(1);
    h.recordSuccess('a');
    assert.equal(h.state('a'), 'closed');
    h.recordFailure('a');
    assert.equal(h.state('a'), 'closed', 'the count starts again after closing');
  });

  it('forgets failures older than the window and resets them on success', () => {
    const c = clock();
    const h = new EndpointHealth({ failureThreshold: 3, failureWindowMs: 10_000, now: c.now });
    h.recordFailure('a');
    h.recordFailure('a');
    c.advance(10_000);
    h.recordFailure('a');
    assert.equal(h.state('a'), 'closed', 'two of three failures fell out of the window');
    h.recordFailure('a');
    h.recordSuccess('a');
    h.recordFailure('a');
    h.recordFailure('a');
    assert.equal(h.state('a'), 'closed', 'a success breaks the run of failures');
    h.recordFailure('a');
    assert.equal(h.state('a'), 'open');
  });

  it('ignores failures while open (the cooldown is not extended by stragglers)', () => {
    const c = clock();
    const h = new EndpointHealth({ failureThreshold: 1, cooldownMs: 1_000, now: c.now });
    h.recordFailure('a');
    c.advance(900);
    h.recordFailure('a');
    c.advance(100);
    assert.equal(h.state('a'), 'half_open');
  });

  it('keeps EWMAs of latency and throughput', () => {
    const h = new EndpointHealth({ ewmaAlpha: 0.5 });
    assert.equal(h.latencyMs('a'), undefined);
    assert.equal(h.throughput('a'), undefined);
    h.recordLatency('a', 100);
    assert.equal(h.latencyMs('a'), 100);
    assert.equal(h.throughput('a'), undefined);
    h.recordLatency('a', 200, 40);
    assert.equal(h.latencyMs('a'), 150);
    assert.equal(h.throughput('a'), 40);
    h.recordLatency('a', Number.NaN, 20);
    assert.equal(h.latencyMs('a'), 150);
    assert.equal(h.throughput('a'), 30);
    assert.throws(() => new EndpointHealth({ ewmaAlpha: 0 }), RangeError);
  });

  it('snapshots state for observability', () => {
    const c = clock();
    const h = new EndpointHealth({ failureThreshold: 2, now: c.now });
    h.recordFailure('a');
    h.recordLatency('b', 10, 5);
    assert.deepEqual(h.snapshot(), [
      { key: 'a', state: 'closed', recentFailures: 1, latencyMs: null, throughput: null },
      { key: 'b', state: 'closed', recentFailures: 0, latencyMs: 10, throughput: 5 },
    ]);
  });
});

describe('EndpointHealth after a catalog reload', () => {
  it('drops the state of removed and re-pointed endpoints and ignores late records for removed ones', () => {
    const h = new EndpointHealth({ failureThreshold: 1 });
    h.recordFailure('gone');
    h.recordFailure('moved');
    h.recordFailure('kept');
    h.recordLatency('kept', 50);
    h.reconcile({ keep: new Set(['moved', 'kept', 'new']), reset: ['moved'] });
    assert.equal(h.state('gone'), 'closed');
    assert.equal(h.state('moved'), 'closed');
    assert.equal(h.state('kept'), 'open');
    assert.equal(h.latencyMs('kept'), 50);
    // A call still in flight on the removed endpoint finishes later: its result is not recorded.
    h.recordFailure('gone');
    h.recordLatency('gone', 10);
    assert.deepEqual(
      h.snapshot().map((s) => s.key),
      ['kept'],
    );
    h.recordFailure('new');
    assert.equal(h.state('new'), 'open');
  });
});
