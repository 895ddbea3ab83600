import { toModelsResponse, toProvidersResponse, type Catalog } from '../../catalog/index.js';
import { errorResponses } from '../schemas/common.js';
import type { App } from '../types.js';

/** GET /models and GET /providers: the catalog in the reference's shapes (either kind of key). */
export function catalogRoutes(app: App, catalog: Catalog): void {
  app.get('/models', {
    schema: { tags: ['Catalog'], operationId: 'getModels', response: errorResponses(400, 401, 500) },
    handler: (request) => toModelsResponse(catalog, request.query as Record<string, unknown>, { basePath: '/api/v1' }),
  });
  app.get('/providers', {
    schema: { tags: ['Catalog'], operationId: 'listProviders', response: errorResponses(401, 500) },
    handler: () => toProvidersResponse(catalog),
  });
}
