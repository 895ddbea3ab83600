import type { Services } from '../../services.js';
import { errors } from '../../errors/index.js';
import { errorResponses } from '../schemas/common.js';
import type { App } from '../types.js';

/**
 * POST /catalog/reload (management key): re-reads SWITCHYARD_CONFIG, like SIGHUP. A file that
 * does not load keeps the running catalog and answers 400 with every problem as
 * `file:line: path: message` in `metadata.errors`.
 */
export function catalogReloadRoute(app: App, services: Services): void {
  app.post('/catalog/reload', {
    schema: { tags: ['Catalog'], operationId: 'reloadCatalog', response: errorResponses(400, 401, 403, 409, 500) },
    handler: async (request) => {
      const reloader = services.catalogReloader;
      if (reloader === null) throw errors.conflict('This server has no catalog source to reload from');
      const outcome = await reloader.reload();
      if (!outcome.ok) {
        request.log.warn({ source: outcome.source, errors: outcome.errors.length }, 'catalog reload refused');
        throw errors.invalidRequest('The catalog file is invalid; the running catalog is kept', {
          source: outcome.source,
          errors: [...outcome.errors],
        });
      }
      request.log.info(
        { source: outcome.source, models: outcome.models, added: outcome.addedModels.length },
        'catalog reloaded',
      );
      return {
        data: {
          source: outcome.source,
          models: outcome.models,
          providers: outcome.providers,
          added_models: [...outcome.addedModels],
          removed_models: [...outcome.removedModels],
          warnings: [...outcome.warnings],
        },
      };
    },
  });
}
