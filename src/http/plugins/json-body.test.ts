import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { installErrorHandling } from './error-handler.js';
import { installJsonBodyParser, MAX_JSON_DEPTH, nestedTooDeep, parseJsonBody } from './json-body.js';

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

test('nesting is bounded: 64 levels pass, 65 and 100,000 are too deep', () => {
  const nest = (n: number) => '['.repeat(n - 1) + '{"a":1}' + ']'.repeat(n - 1);
  assert.equal(nestedTooDeep(JSON.parse(nest(MAX_JSON_DEPTH))), false);
  assert.equal(nestedTooDeep(JSON.parse(nest(MAX_JSON_DEPTH + 1))), true);
  assert.equal(nestedTooDeep(parseJsonBody(`{"x":${'{"u":'.repeat(100_000)}1${'}'.repeat(100_000)}}`)), true);
  assert.equal(nestedTooDeep({ messages: [{ role: 'user', content: 'x'.repeat(1e6) }] }), false);
});

test('too deep is a 400 in the envelope, on the reviver path too (an escape in the text)', async () => {
  const app = Fastify();
  installErrorHandling(app, 1 << 24);
  installJsonBodyParser(app);
  app.post('/x', () => ({ ok: true }));
  for (const payload of [
    `{"a":"\\u0041","x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
    `{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
  ]) {
    const res = await app.inject({
      method: 'POST',
      url: '/x',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /"code":400,"message":"JSON body nests deeper than 64 levels"/);
  }
  await app.close();
});
