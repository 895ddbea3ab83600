import type { Metrics } from '../../observability/metrics.js';
import type { App } from '../types.js';

/**
 * `GET /metrics` in Prometheus text format. The lead chooses its auth scope; its labels carry no
 * key tokens and no prompt text.
 */
export function metricsRoute(app: App, metrics: Metrics, url = '/metrics'): void {
  app.get(url, { schema: { hide: true } }, async (_request, reply) => {
    const body = await metrics.render();
    reply.header('content-type', metrics.contentType());
    return reply.send(body);
  });
}
