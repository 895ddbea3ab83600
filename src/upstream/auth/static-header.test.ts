import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearerKeyAuth, staticHeaderAuth } from './static-header.js';

const REQUEST = { method: 'POST', url: new URL('https://example.test/x'), headers: {}, body: null };

test('a static credential header is returned synchronously, lower-cased, as a fresh object', () => {
  const auth = staticHeaderAuth('Api-Key', 'k-123456');
  const first = auth.headersFor(REQUEST);
  assert.deepEqual(first, { 'api-key': 'k-123456' });
  (first as Record<string, string>)['api-key'] = 'changed';
  assert.deepEqual(auth.headersFor(REQUEST), { 'api-key': 'k-123456' });
  assert.deepEqual(bearerKeyAuth('ABSKkey').headersFor(REQUEST), { authorization: 'Bearer ABSKkey' });
});

test('an empty value, a header-injection attempt or a bad name is refused without echoing the value', () => {
  assert.throws(() => staticHeaderAuth('api-key', ''), /empty/);
  assert.throws(
    () => staticHeaderAuth('api-key', 'secret-value\r\nx-evil: 1'),
    (e: Error) => !e.message.includes('secret-value'),
  );
  assert.throws(() => staticHeaderAuth('bad header', 'v'), /Invalid credential header name/);
});
