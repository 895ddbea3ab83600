/**
 * GET /models: `{data, links:{next}, total_count}`. Lists models with at least one
 * available provider. Supported filters: q, supported_parameters, input_modalities,
 * output_modalities (default `text`; `all`), context, min_/max_price, min_/max_output_price,
 * model_authors, providers, zdr, distillable; sorts: newest, pricing-low-to-high,
 * pricing-high-to-low, context-high-to-low (other reference sorts keep the catalog order).
 * Other reference parameters (category, arch, region, indices …) are accepted and ignored.
 * A malformed value throws a 400 GatewayError naming the parameter.
 */
import { errors } from '../errors/index.js';
import { type WireModel, type WireOptions, toWireModel, topEndpoint } from './model-wire.js';
import type { Catalog, CatalogModel } from './types.js';

export interface ModelsResponse {
  data: WireModel[];
  links: { next: string | null };
  total_count: number;
}

export type ModelsQuery = Readonly<Record<string, unknown>>;

const SORTS = [
  'most-popular',
  'newest',
  'top-weekly',
  'pricing-low-to-high',
  'pricing-high-to-low',
  'context-high-to-low',
  'throughput-high-to-low',
  'latency-low-to-high',
  'intelligence-high-to-low',
  'coding-high-to-low',
  'agentic-high-to-low',
  'design-arena-elo-high-to-low',
];
const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 1000;

function param(query: ModelsQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string')
    throw errors.invalidRequest(`Query parameter "${name}" must be given once`, { field: name });
  return value;
}

function csv(query: ModelsQuery, name: string): string[] | undefined {
  const value = param(query, name);
  return value
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
}

function int(query: ModelsQuery, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const value = param(query, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw errors.invalidRequest(`Query parameter "${name}" must be an integer between ${min} and ${max}`, {
      field: name,
    });
  }
  return Number(value);
}

function price(query: ModelsQuery, name: string): number | undefined {
  const value = param(query, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw errors.invalidRequest(`Query parameter "${name}" must be a number ≥ 0`, { field: name });
  return n / 1e6;
}

function bool(query: ModelsQuery, name: string): boolean | undefined {
  const value = param(query, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false')
    throw errors.invalidRequest(`Query parameter "${name}" must be true or false`, { field: name });
  return value === 'true';
}

type Predicate = (model: CatalogModel) => boolean;

function filters(catalog: Catalog, query: ModelsQuery): Predicate[] {
  const out: Predicate[] = [(m) => m.available];
  const availableEndpoints = (m: CatalogModel) =>
    m.endpoints.filter((e) => catalog.findProvider(e.providerId)?.available === true);
  const q = param(query, 'q')?.toLowerCase();
  if (q !== undefined) {
    out.push((m) => [m.slug, m.name, m.description ?? ''].some((s) => s.toLowerCase().includes(q)));
  }
  const params = csv(query, 'supported_parameters');
  if (params) out.push((m) => params.every((p) => m.supportedParameters.includes(p)));
  const inputs = csv(query, 'input_modalities');
  if (inputs) out.push((m) => inputs.every((i) => m.inputModalities.includes(i)));
  const outputs = csv(query, 'output_modalities') ?? ['text'];
  if (!outputs.includes('all')) out.push((m) => outputs.some((o) => m.outputModalities.includes(o)));
  const context = int(query, 'context', 1);
  if (context !== undefined) out.push((m) => m.contextLength >= context);
  const bounds: [string, 'prompt' | 'completion', 'min' | 'max'][] = [
    ['min_price', 'prompt', 'min'],
    ['max_price', 'prompt', 'max'],
    ['min_output_price', 'completion', 'min'],
    ['max_output_price', 'completion', 'max'],
  ];
  for (const [name, field, kind] of bounds) {
    const bound = price(query, name);
    if (bound === undefined) continue;
    const eps = 1e-15;
    out.push((m) => {
      const value = topEndpoint(catalog, m)?.pricing[field];
      if (value === undefined) return false;
      return kind === 'min' ? value >= bound - eps : value <= bound + eps;
    });
  }
  const authors = csv(query, 'model_authors');
  if (authors) out.push((m) => authors.includes(m.author));
  const providers = csv(query, 'providers');
  if (providers) out.push((m) => availableEndpoints(m).some((e) => providers.includes(e.providerId)));
  if (bool(query, 'zdr') === true) {
    out.push((m) => availableEndpoints(m).some((e) => catalog.findProvider(e.providerId)?.zdr === true));
  }
  const distillable = bool(query, 'distillable');
  if (distillable !== undefined) out.push((m) => m.distillable === distillable);
  return out;
}

function sortModels(catalog: Catalog, models: CatalogModel[], sort: string | undefined): CatalogModel[] {
  const price = (m: CatalogModel) => {
    const top = topEndpoint(catalog, m);
    return top ? top.pricing.prompt + top.pricing.completion : 0;
  };
  const sorted = [...models];
  if (sort === 'newest') sorted.sort((a, b) => b.created - a.created);
  else if (sort === 'pricing-low-to-high') sorted.sort((a, b) => price(a) - price(b));
  else if (sort === 'pricing-high-to-low') sorted.sort((a, b) => price(b) - price(a));
  else if (sort === 'context-high-to-low') sorted.sort((a, b) => b.contextLength - a.contextLength);
  return sorted;
}

export function toModelsResponse(catalog: Catalog, query: ModelsQuery = {}, options: WireOptions = {}): ModelsResponse {
  const sort = param(query, 'sort');
  if (sort !== undefined && !SORTS.includes(sort)) {
    throw errors.invalidRequest(`Query parameter "sort" must be one of ${SORTS.join(', ')}`, { field: 'sort' });
  }
  const offsetParam = int(query, 'offset', 0);
  const limitParam = int(query, 'limit', 1, MAX_LIMIT);
  const predicates = filters(catalog, query);
  const matching = sortModels(
    catalog,
    catalog.models.filter((m) => predicates.every((p) => p(m))),
    sort,
  );
  const paginate = offsetParam !== undefined || limitParam !== undefined;
  const offset = offsetParam ?? 0;
  const limit = limitParam ?? DEFAULT_LIMIT;
  const page = paginate ? matching.slice(offset, offset + limit) : matching;
  let next: string | null = null;
  if (paginate && offset + limit < matching.length) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (typeof value === 'string' && key !== 'offset' && key !== 'limit') search.set(key, value);
    }
    search.set('offset', String(offset + limit));
    search.set('limit', String(limit));
    next = `${(options.basePath ?? '/api/v1').replace(/\/+$/, '')}/models?${search.toString()}`;
  }
  return {
    data: page.map((m) => toWireModel(catalog, m, options)),
    links: { next },
    total_count: matching.length,
  };
}
