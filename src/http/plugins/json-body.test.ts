import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonBody } from './json-body.js';

test('plain bodies parse as JSON.parse does', () => {
  const text = '{"model":"a/b","messages":[{"role":"user","content":"hi"}],"n":1.5,"x":null}';
  assert.deepEqual(parseJsonBody(text), JSON.parse(text));
});

test('__proto__ keys are dropped, literal or spelled with escapes, at any depth', () => {
  for (const text of [
    '{"__proto__":{"admin":true},"a":1}',
    '{"a":{"\\u005f_proto__":{"admin":true}},"b":2}',
    '{"a":[{"__proto__":1}]}',
  ]) {
    const value = parseJsonBody(text) as Record<string, unknown>;
    assert.equal(JSON.stringify(value).includes('admin'), false, text);
    assert.equal(JSON.stringify(value).includes('__proto__'), false, text);
    assert.equal(({} as Record<string, unknown>).admin, undefined);
  }
});

test('escaped non-ASCII text still parses (slow path, same value)', () => {
  const text = '{"content":"caf\\u00e9"}';
  assert.deepEqual(parseJsonBody(text), { content: 'café' });
});

test('malformed JSON throws', () => {
  assert.throws(() => parseJsonBody('{"a":'));
});
