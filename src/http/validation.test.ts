import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isGatewayError } from '../errors/index.js';
import { validatorCompiler } from './validation.js';

const schema = {
  type: 'object',
  required: ['model'],
  properties: { model: { type: 'string' }, n: { type: 'integer', default: 1 } },
  additionalProperties: false,
};
const compile = (httpPart: string) => validatorCompiler({ schema, httpPart, method: 'POST', url: '/x' });

test('a valid body passes as itself (true, no copy) with defaults applied in place', () => {
  const body: Record<string, unknown> = { model: 'a/b' };
  assert.equal(compile('body')(body), true);
  assert.deepEqual(body, { model: 'a/b', n: 1 });
});

test('an invalid body is a 400 GatewayError naming the field', () => {
  const result = compile('body')({ model: 'a/b', extra: 1 });
  assert.equal(typeof result, 'object');
  const error = (result as { error?: unknown }).error;
  assert.ok(isGatewayError(error));
  assert.equal(error.status, 400);
  assert.match(error.message, /extra is not a recognised field/);
});

test('bodies are typed as sent: "5" is not a number; query strings are coerced', () => {
  const typed = { type: 'object', properties: { n: { type: 'integer' } } };
  const of = (httpPart: string) => validatorCompiler({ schema: typed, httpPart, method: 'GET', url: '/x' });
  assert.notEqual(of('body')({ n: '5' }), true);
  const query: Record<string, unknown> = { n: '5' };
  assert.equal(of('querystring')(query), true);
  assert.equal(query.n, 5);
});
