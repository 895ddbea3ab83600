import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.js';
import type { App } from '../types.js';

/** `GET /health` and `GET /api/v1/health`: no auth; 503 when the store does not answer. */
export function healthRoutes(app: App, services: Services): void {
  const Health = Type.Object({ status: Type.String(), database: Type.String() });
  for (const url of ['/health', '/api/v1/health']) {
    app.get(
      url,
      { schema: { hide: url === '/health', tags: ['Operations'], response: { 200: Health, 503: Health } } },
      async (_request, reply) => {
        try {
          await services.store.ping();
          return { status: 'ok', database: services.store.dialect };
        } catch {
          reply.code(503);
          return { status: 'degraded', database: 'unreachable' };
        }
      },
    );
  }
}
