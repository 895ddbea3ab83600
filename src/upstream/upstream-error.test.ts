import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../errors/index.js';
import { fromHttpStatus, parseRetryAfter, sanitizeMessage, UpstreamError } from './upstream-error.js';

const base = { providerId: 'p', apiKey: 'sk-secret-key-1234567890', upstreamMessage: 'boom', providerCode: null };

test('status mapping table', () => {
  const cases: [number, number, boolean][] = [
    [400, 400, false],
    [401, 502, true],
    [402, 502, true],
    [403, 502, true],
    [404, 502, true],
    [408, 408, true],
    [413, 400, false],
    [422, 400, false],
    [429, 429, true],
    [500, 502, true],
    [502, 502, true],
    [503, 503, true],
    [504, 502, true],
    [529, 503, true],
  ];
  for (const [upstream, gateway, retryable] of cases) {
    const err = fromHttpStatus({ ...base, upstreamStatus: upstream });
    assert.ok(err instanceof UpstreamError && err instanceof GatewayError);
    assert.equal(err.status, gateway, `upstream ${upstream}`);
    assert.equal(err.retryable, retryable, `upstream ${upstream}`);
    assert.equal(err.upstreamStatus, upstream);
  }
});

test('5xx detail is masked; 4xx detail is kept and the key is scrubbed', () => {
  const e500 = fromHttpStatus({ ...base, upstreamStatus: 500, upstreamMessage: 'stack trace here' });
  assert.equal(e500.message, 'Provider returned error');
  const e400 = fromHttpStatus({
    ...base,
    upstreamStatus: 400,
    upstreamMessage: 'bad key sk-secret-key-1234567890 used',
  });
  assert.match(e400.message, /bad key \*\*\* used/);
  assert.ok(!e400.message.includes('sk-secret'));
});

test('429 carries retry-after for the renderer', () => {
  const err = fromHttpStatus({ ...base, upstreamStatus: 429, retryAfterMs: 2500 });
  assert.equal(err.headers['retry-after'], '3');
  assert.equal(err.retryAfterMs, 2500);
  assert.equal(err.metadata?.provider_name, 'p');
});

test('sanitizeMessage masks tokens that are not the configured key', () => {
  const out = sanitizeMessage(
    'Incorrect API key provided: sk-proj-abcdefghijklmnop. Authorization: Bearer abcdefghijklmnopqrstuvwxyz',
    null,
  );
  assert.ok(!out.includes('abcdefghijklmnop'));
  assert.ok(!out.includes('qrstuvwxyz'));
});

test('parseRetryAfter: ms header, seconds, http date, junk', () => {
  assert.equal(parseRetryAfter({ 'retry-after-ms': '1500' }), 1500);
  assert.equal(parseRetryAfter({ 'retry-after': '2' }), 2000);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now), 5000);
  assert.equal(parseRetryAfter({ 'retry-after': 'soon' }), null);
  assert.equal(parseRetryAfter({}), null);
});
