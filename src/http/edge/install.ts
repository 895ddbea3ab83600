import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { modelCallEdge, type ModelCallEdgeOptions } from './model-call-edge.js';

/**
 * Puts the lean model-call edge in front of Fastify on the app's server: Fastify's own
 * `'request'` listener is replaced by the edge, which calls it for every request it does not
 * serve. The edge hands requests to Fastify once the app starts closing, so Fastify answers them
 * (503) as before.
 */
export function installModelCallEdge(
  app: FastifyInstance,
  options: Omit<ModelCallEdgeOptions, 'log' | 'closing'>,
): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const listeners = app.server.listeners('request');
  if (listeners.length !== 1) throw new Error(`expected Fastify's one 'request' listener, found ${listeners.length}`);
  const fastify = listeners[0] as (req: IncomingMessage, res: ServerResponse) => void;
  app.server.removeListener('request', fastify);
  app.server.on('request', modelCallEdge({ ...options, log: app.log, closing: () => closing }, fastify));
}
