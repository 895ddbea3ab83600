import { Type } from '@sinclair/typebox';
import { toEndpointsResponse, toModelsResponse, toProvidersResponse, type CatalogSource } from '../../catalog/index.js';
import { errors } from '../../errors/index.js';
import { errorResponses } from '../schemas/common.js';
import type { App } from '../types.js';

const EndpointParams = Type.Object({ author: Type.String(), slug: Type.String() });

/**
 * GET /models, GET /models/{author}/{slug}/endpoints, GET /embeddings/models (the models that
 * serve embeddings) and GET /providers: the catalog in
 * OpenRouter's shapes (either kind of key). Each request reads the running snapshot once, so a
 * catalog reload shows in the next request.
 */
export function catalogRoutes(app: App, catalog: CatalogSource, health?: { isHealthy(key: string): boolean }): void {
  app.get('/models', {
    schema: { tags: ['Catalog'], operationId: 'getModels', response: errorResponses(400, 401, 500) },
    handler: (request) =>
      toModelsResponse(catalog.current(), request.query as Record<string, unknown>, { basePath: '/api/v1' }),
  });
  app.get('/models/:author/:slug/endpoints', {
    schema: {
      tags: ['Catalog'],
      operationId: 'listEndpoints',
      params: EndpointParams,
      response: errorResponses(401, 404, 500),
    },
    handler: (request) => {
      const { author, slug } = request.params;
      const listing = toEndpointsResponse(catalog.current(), `${author}/${slug}`, {
        isHealthy: health === undefined ? undefined : (key) => health.isHealthy(key),
      });
      if (listing === undefined) throw errors.notFound(`Model ${author}/${slug} not found`);
      return listing;
    },
  });
  app.get('/embeddings/models', {
    schema: { tags: ['Catalog'], operationId: 'listEmbeddingsModels', response: errorResponses(400, 401, 500) },
    handler: (request) => {
      const snapshot = catalog.current();
      const all = toModelsResponse(
        snapshot,
        { ...(request.query as Record<string, unknown>), output_modalities: 'all' },
        { basePath: '/api/v1' },
      );
      return { data: all.data.filter((m) => snapshot.findModel(m.id)?.serves.includes('embeddings') === true) };
    },
  });
  app.get('/providers', {
    schema: { tags: ['Catalog'], operationId: 'listProviders', response: errorResponses(401, 500) },
    handler: () => toProvidersResponse(catalog.current()),
  });
}
