import { errors } from '../errors/index.js';
import type { Catalog, ModelService } from './types.js';

/**
 * Refuses, with 400 naming the model, a request for a service that a requested model does not
 * serve (an embeddings-only model called for chat, or a chat model called for embeddings).
 * Unknown models are left to routing, which answers 404.
 */
export function requireServes(catalog: Catalog, slugs: readonly string[], service: ModelService): void {
  for (const slug of slugs) {
    const model = catalog.findModel(slug);
    if (model === undefined || model.serves.includes(service)) continue;
    const what = service === 'chat' ? 'chat (it is an embeddings model)' : 'embeddings (it is a chat model)';
    throw errors.invalidRequest(`Model "${model.slug}" does not serve ${what}`, {
      field: 'model',
      model: model.slug,
      serves: [...model.serves],
    });
  }
}
