import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LeanRoutes, type LeanRoute } from './lean-routes.js';

const route = (url: string): LeanRoute => ({
  url,
  config: {},
  validate: () => true,
  handler: () => Promise.resolve(undefined),
});

test('a URL matches a lean route as Fastify routes it: exact path, one trailing slash, any query', () => {
  const routes = new LeanRoutes();
  const chat = route('/api/v1/chat/completions');
  routes.add(chat);
  routes.add(route('/api/v1/messages'));
  assert.equal(routes.match('/api/v1/chat/completions'), chat);
  assert.equal(routes.match('/api/v1/chat/completions/'), chat);
  assert.equal(routes.match('/api/v1/chat/completions?x=1&y'), chat);
  assert.equal(routes.match('/api/v1/chat/completions/?x=1'), chat);
  // Anything else is Fastify's to route (or to answer 404).
  for (const other of [
    '/api/v1/chat/completions//',
    '/api/v1/chat//completions',
    '/api/v1/Chat/Completions',
    '/api/v1/chat%2Fcompletions',
    '/api/v1/chat/completions;x=1',
    '/api/v1/chat/completions/extra',
    'http://host/api/v1/chat/completions',
    '/',
    '',
  ])
    assert.equal(routes.match(other), undefined, other);
});
