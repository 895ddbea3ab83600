import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { lazySerializerFactory } from './lazy-serializer.js';

const Shared = {
  $id: 'Shared',
  type: 'object',
  properties: { id: { type: 'string' }, n: { type: 'integer' } },
  required: ['id'],
};
const envelope = { type: 'object', properties: { data: { $ref: 'Shared#' }, extra: { type: 'string' } } };
const payload = { data: { id: 'a"b', n: 3, dropped: true }, extra: 'x', unknown: 1 };

/** An app with one route answering `payload` through `schema`, eager (Fastify's) or lazy. */
async function answer(lazy: boolean, schema: object, route = '/r'): Promise<string> {
  const app = Fastify(
    lazy ? { schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } } } : {},
  );
  app.addSchema(Shared);
  app.get(route, { schema: { response: { 200: schema } } }, () => payload);
  const res = await app.inject({ method: 'GET', url: route });
  await app.close();
  return res.body;
}

test('a lazily compiled serializer writes the bytes the eager one writes (shared schemas included)', async () => {
  const eager = await answer(false, envelope);
  assert.equal(await answer(true, envelope), eager);
  assert.equal(eager, '{"data":{"id":"a\\"b","n":3},"extra":"x"}');
});

test('a serializer is compiled on its first answer, not when the route is set up', () => {
  const compile = lazySerializerFactory()({ Shared }, {});
  const route = { method: 'GET', url: '/x', httpStatus: '200' };
  // A reference nothing resolves: the eager compiler throws at once, the lazy one on first use.
  const broken = compile({ ...route, schema: { $ref: 'Missing#' } });
  assert.throws(() => broken({}));
  const serialize = compile({ ...route, schema: { type: 'object', properties: { a: { type: 'number' } } } });
  assert.equal(serialize({ a: 1, b: 2 }), '{"a":1}');
  assert.equal(serialize({ a: 2 }), '{"a":2}');
});

test('a route answering with a shared schema itself does not hide it from routes compiled after it', async () => {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } } });
  app.addSchema(Shared);
  app.get('/own', { schema: { response: { 200: Shared } } }, () => payload.data);
  app.get('/env', { schema: { response: { 200: envelope } } }, () => payload);
  const own = await app.inject({ method: 'GET', url: '/own' });
  const env = await app.inject({ method: 'GET', url: '/env' });
  await app.close();
  assert.equal(own.body, '{"id":"a\\"b","n":3}');
  assert.equal(env.body, '{"data":{"id":"a\\"b","n":3},"extra":"x"}');
});
