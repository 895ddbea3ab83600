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

test('non-finite and unsafe numbers are refused in bodies and query strings alike', () => {
  const bounded = {
    type: 'object',
    properties: {
      offset: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
      limit: { type: 'number' },
    },
  };
  const of = (httpPart: string) => validatorCompiler({ schema: bounded, httpPart, method: 'GET', url: '/x' });
  for (const value of ['1e309', '-1e309', 'Infinity', '99999999999999999999']) {
    assert.notEqual(of('querystring')({ offset: value }), true, `offset=${value}`);
  }
  assert.notEqual(of('querystring')({ limit: '1e309' }), true);
  assert.notEqual(of('body')({ limit: Number.POSITIVE_INFINITY }), true);
  assert.notEqual(of('body')({ offset: 1e20 }), true, 'an integer beyond the safe range');
  assert.equal(of('querystring')({ offset: '12', limit: '1.5' }), true);
});

test('a NUL character in a path or query value is a 400 naming the field', () => {
  const ids = { type: 'object', properties: { id: { type: 'string' } } };
  const result = validatorCompiler({
    schema: ids,
    httpPart: 'params',
    method: 'GET',
    url: '/x',
  })({
    id: 'a\u0000b',
  });
  const error = (result as { error?: unknown }).error;
  assert.ok(isGatewayError(error));
  assert.match(error.message, /id must not contain a NUL character/);
});

test('a validator is compiled on its first use, not when the route is set up', () => {
  // Ajv cannot compile an unknown reference: the error comes with the first request, not before.
  const validate = validatorCompiler({ schema: { $ref: 'Missing#' }, httpPart: 'body', method: 'POST', url: '/x' });
  assert.throws(() => validate({}));
});
