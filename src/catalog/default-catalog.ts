/**
 * The built-in catalog used when SWITCHYARD_CONFIG is unset: one offline `demo` provider, two
 * demo chat models and one demo embedding model, so that `npm start` answers a model call with no network and no keys. It names no
 * real vendor's model: a `/models` listing never claims that `openai/…` is served when it is not.
 * (To exercise the vendor ZDR groups offline, load examples/config.demo-vendors.yaml.)
 *
 * It goes through the same validation as a config file.
 */
import { buildCatalog, type Env } from './build-catalog.js';
import { validateCatalogConfig } from './config-schema.js';
import type { Catalog } from './types.js';

/** 2025-01-01T00:00:00Z: a fixed `created` so the listing is stable across restarts. */
const DEMO_CREATED = 1735689600;

export const DEFAULT_CATALOG_CONFIG = Object.freeze({
  providers: [
    {
      id: 'demo',
      name: 'Switchyard Demo',
      kind: 'demo',
      zdr: true,
      data_collection: 'deny',
    },
  ],
  models: [
    {
      slug: 'demo/echo',
      name: 'Demo: Echo',
      description:
        'Offline demo model served inside the gateway: replies with the last user message. ' +
        'Nominal prices so that spend limits and accounting can be exercised.',
      created: DEMO_CREATED,
      context_length: 32768,
      endpoints: [
        {
          provider: 'demo',
          upstream_model: 'echo',
          max_completion_tokens: 4096,
          pricing: { prompt: 0.000001, completion: 0.000002 },
        },
      ],
    },
    {
      slug: 'demo/fast',
      name: 'Demo: Fast',
      description: 'Offline demo model served inside the gateway; a cheaper sibling of demo/echo.',
      created: DEMO_CREATED,
      context_length: 8192,
      endpoints: [
        {
          provider: 'demo',
          upstream_model: 'fast',
          max_completion_tokens: 2048,
          pricing: { prompt: 0.0000001, completion: 0.0000002 },
        },
      ],
    },
    {
      slug: 'demo/embed',
      name: 'Demo: Embeddings',
      description:
        'Offline demo embedding model served inside the gateway: deterministic unit vectors ' +
        '(256 dimensions unless `dimensions` asks for fewer), equal texts give equal vectors.',
      created: DEMO_CREATED,
      context_length: 8192,
      serves: ['embeddings'],
      endpoints: [
        {
          provider: 'demo',
          upstream_model: 'embed',
          pricing: { prompt: 0.00000002, completion: 0 },
        },
      ],
    },
  ],
});

export function defaultCatalog(env: Env = {}): Catalog {
  const { config, issues } = validateCatalogConfig(DEFAULT_CATALOG_CONFIG);
  if (config === null) {
    throw new Error(`built-in catalog is invalid: ${issues.map((i) => i.message).join('; ')}`);
  }
  return buildCatalog(config, { env, defaultCreated: DEMO_CREATED });
}
