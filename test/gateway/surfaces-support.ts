import { PRICES, testCatalog } from '../support/gateway.js';

/** Price of the test embedding model's input tokens (USD per token). */
export const EMBED_PRICE = 0.0000001;

/** The test catalog plus an embedding model on the fake OpenAI upstream and the offline demo provider. */
export function surfacesCatalog(fakeUrl: string): Record<string, unknown> {
  const base = testCatalog(fakeUrl) as { providers: unknown[]; models: unknown[] };
  return {
    providers: [...base.providers, { id: 'demo', kind: 'demo', zdr: true, data_collection: 'deny' }],
    models: [
      ...base.models,
      {
        slug: 'openai/embed-test',
        context_length: 8192,
        serves: ['embeddings'],
        endpoints: [
          { provider: 'fake-openai', upstream_model: 'embed-test', pricing: { prompt: EMBED_PRICE, completion: 0 } },
        ],
      },
      {
        slug: 'demo/echo',
        context_length: 32768,
        serves: ['chat', 'embeddings'],
        endpoints: [{ provider: 'demo', upstream_model: 'echo', pricing: PRICES.primary }],
      },
    ],
  };
}
