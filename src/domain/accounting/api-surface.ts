import { API_TYPES, type ApiType } from '../../wire/index.js';

/**
 * The API surface a call came in on, and OpenRouter's `api_type` derived from it. OpenRouter's
 * enum has only `completions` and `embeddings`: chat, legacy completions, Messages and Responses
 * calls are all `completions` there. The surface itself is kept as Switchyard's own additive
 * field (`api_surface`), shown and filterable.
 */
export type OpenRouterApiType = 'completions' | 'embeddings';

export const openRouterApiType = (surface: ApiType): OpenRouterApiType =>
  surface === 'embeddings' ? 'embeddings' : 'completions';

/** A stored surface; anything unknown reads as `chat` (rows stored before surfaces were kept apart say so after migration 011). */
export const apiSurfaceOf = (value: string): ApiType => API_TYPES.find((s) => s === value) ?? 'chat';
