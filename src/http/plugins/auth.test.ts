import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isGatewayError } from '../../errors/index.js';
import { bearerToken } from './auth.js';

const token = (authorization: string | undefined) =>
  bearerToken({ headers: authorization === undefined ? {} : { authorization } });
const status = (authorization: string | undefined) => {
  try {
    token(authorization);
    return null;
  } catch (error) {
    return isGatewayError(error) ? `${error.status} ${error.code}` : 'other';
  }
};

test('the token of "Bearer <token>" in every accepted spelling', () => {
  const t = 'sk-sy-v1-' + 'a'.repeat(64);
  for (const header of [`Bearer ${t}`, `bearer ${t}`, `BEARER ${t}`, `Bearer   ${t}`, `Bearer\t${t}`, `Bearer ${t}  `])
    assert.equal(token(header), t, JSON.stringify(header));
});

test('anything else is a 401, missing and malformed alike', () => {
  const missing = status(undefined);
  assert.match(missing ?? '', /^401 /);
  assert.equal(status('   '), missing);
  for (const header of ['Bearer ', 'Bearer', 'Basic abc', 'Bearer a b', 'Bearer a\u00a0b', 'Token x'])
    assert.match(status(header) ?? 'accepted', /^401 /, JSON.stringify(header));
});

test('x-api-key is the token when there is no Authorization header; Authorization wins when both are sent', () => {
  const t = 'sk-sy-v1-' + 'b'.repeat(64);
  assert.equal(bearerToken({ headers: { 'x-api-key': t } }), t);
  assert.equal(bearerToken({ headers: { authorization: 'Bearer other', 'x-api-key': t } }), 'other');
  for (const bad of ['', 'a b'])
    assert.throws(
      () => bearerToken({ headers: { 'x-api-key': bad } }),
      (e) => isGatewayError(e) && e.status === 401,
    );
});
