/**
 * One catalog model in OpenRouter's Model shape: every required key present, pricing as
 * per-token decimal strings. The "top provider" is the model's cheapest available endpoint, the
 * one default routing tries first.
 */
import { decimalString } from './decimal.js';
import type { Catalog, CatalogEndpoint, CatalogModel, EndpointPricing } from './types.js';

export interface WirePricing {
  prompt: string;
  completion: string;
  request?: string;
  image?: string;
  audio?: string;
  input_cache_read?: string;
  input_cache_write?: string;
  internal_reasoning?: string;
  web_search?: string;
}

export interface WireModel {
  id: string;
  canonical_slug: string;
  name: string;
  created: number;
  description?: string;
  context_length: number | null;
  architecture: {
    input_modalities: string[];
    output_modalities: string[];
    modality: string | null;
    tokenizer: string;
    instruct_type: string | null;
  };
  pricing: WirePricing;
  top_provider: { is_moderated: boolean; context_length: number | null; max_completion_tokens: number | null };
  per_request_limits: null;
  supported_parameters: string[];
  supported_voices: null;
  default_parameters: null;
  links: { details: string };
  hugging_face_id?: string | null;
}

export interface WireOptions {
  /** Prefix of links, e.g. `/api/v1` or `https://gw.example.com/api/v1`. Default `/api/v1`. */
  readonly basePath?: string;
}

const OPTIONAL_PRICES: [keyof EndpointPricing, keyof WirePricing][] = [
  ['request', 'request'],
  ['image', 'image'],
  ['audio', 'audio'],
  ['inputCacheRead', 'input_cache_read'],
  ['inputCacheWrite', 'input_cache_write'],
  ['internalReasoning', 'internal_reasoning'],
  ['webSearch', 'web_search'],
];

export function tokenPrice(endpoint: CatalogEndpoint): number {
  return endpoint.pricing.prompt + endpoint.pricing.completion;
}

/** The cheapest endpoint whose provider is available (ties: config order), or undefined. */
export function topEndpoint(catalog: Catalog, model: CatalogModel): CatalogEndpoint | undefined {
  let best: CatalogEndpoint | undefined;
  for (const endpoint of model.endpoints) {
    if (catalog.findProvider(endpoint.providerId)?.available !== true) continue;
    if (best === undefined || tokenPrice(endpoint) < tokenPrice(best)) best = endpoint;
  }
  return best;
}

export function wirePricing(pricing: EndpointPricing): WirePricing {
  const out: WirePricing = { prompt: decimalString(pricing.prompt), completion: decimalString(pricing.completion) };
  for (const [from, to] of OPTIONAL_PRICES) {
    const value = pricing[from];
    if (value !== undefined) out[to] = decimalString(value);
  }
  return out;
}

export function toWireModel(catalog: Catalog, model: CatalogModel, options: WireOptions = {}): WireModel {
  const basePath = (options.basePath ?? '/api/v1').replace(/\/+$/, '');
  const top = topEndpoint(catalog, model) ?? model.endpoints[0];
  const wire: WireModel = {
    id: model.slug,
    canonical_slug: model.canonicalSlug,
    name: model.name,
    created: model.created,
    context_length: model.contextLength,
    architecture: {
      input_modalities: [...model.inputModalities],
      output_modalities: [...model.outputModalities],
      modality: `${model.inputModalities.join('+')}->${model.outputModalities.join('+')}`,
      tokenizer: model.tokenizer,
      instruct_type: model.instructType,
    },
    pricing: top ? wirePricing(top.pricing) : { prompt: '0', completion: '0' },
    top_provider: {
      is_moderated: top?.isModerated ?? false,
      context_length: top?.contextLength ?? model.contextLength,
      max_completion_tokens: top?.maxCompletionTokens ?? null,
    },
    per_request_limits: null,
    supported_parameters: [...model.supportedParameters],
    supported_voices: null,
    default_parameters: null,
    links: { details: `${basePath}/models/${model.slug}/endpoints` },
  };
  if (model.description !== null) wire.description = model.description;
  if (model.huggingFaceId !== null) wire.hugging_face_id = model.huggingFaceId;
  return wire;
}
