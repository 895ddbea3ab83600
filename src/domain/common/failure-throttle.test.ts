import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FailureThrottle } from './failure-throttle.js';

function throttle(maxFailures = 3, maxAddresses = 100) {
  let now = 0;
  const t = new FailureThrottle({ maxFailures, windowMs: 10_000, maxAddresses, now: () => now });
  return { t, advance: (ms: number) => (now += ms) };
}

test('an address is throttled once it reaches the limit, until its window ends', () => {
  const { t, advance } = throttle();
  for (let i = 0; i < 2; i += 1) t.recordFailure('a');
  assert.equal(t.retryAfterMs('a'), 0);
  t.recordFailure('a');
  assert.equal(t.retryAfterMs('a'), 10_000);
  assert.equal(t.retryAfterMs('b'), 0, 'other addresses are not affected');
  advance(9_001);
  assert.equal(t.retryAfterSeconds('a'), 1);
  advance(999);
  assert.equal(t.retryAfterMs('a'), 0);
  t.recordFailure('a');
  assert.equal(t.retryAfterMs('a'), 0, 'a new window starts counting from one');
});

test('failures spread over windows never throttle', () => {
  const { t, advance } = throttle();
  for (let i = 0; i < 10; i += 1) {
    t.recordFailure('a');
    advance(5_000);
  }
  assert.equal(t.retryAfterMs('a'), 0);
});

test('memory is bounded: the oldest windows are forgotten first', () => {
  const { t } = throttle(1, 1000);
  for (let i = 0; i < 50_000; i += 1) t.recordFailure(`10.0.${i >> 8}.${i & 255}`);
  assert.equal(t.size(), 1000);
  assert.ok(t.retryAfterMs('10.0.195.79') > 0, 'the newest address is still tracked');
  assert.equal(t.retryAfterMs('10.0.0.0'), 0, 'the oldest was forgotten');
});

test('a limit of 0 turns throttling off', () => {
  const { t } = throttle(0);
  for (let i = 0; i < 10; i += 1) t.recordFailure('a');
  assert.equal(t.enabled, false);
  assert.equal(t.retryAfterMs('a'), 0);
  assert.equal(t.size(), 0);
});
