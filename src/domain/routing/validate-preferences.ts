/**
 * Validates the request's `provider` object (additionalProperties false, so an
 * unknown key is an error). Every error names its field (`provider.max_price.prompt`) so the
 * route can answer 400 with it.
 */
import { QUANTIZATIONS, type Quantization } from '../../catalog/index.js';
import type { MaxPrice, Partition, Percentiles, ProviderPreferences, SortBy } from './types.js';
import { isRecord } from '../../canonical/json.js';

export interface PreferenceError {
  readonly field: string;
  readonly message: string;
}

export type PreferencesValidation =
  | { readonly ok: true; readonly value: ProviderPreferences }
  | { readonly ok: false; readonly errors: readonly PreferenceError[] };

export const DEFAULT_PREFERENCES: ProviderPreferences = Object.freeze({
  order: null,
  only: null,
  ignore: null,
  allowFallbacks: true,
  sort: null,
  maxPrice: null,
  zdr: false,
  dataCollection: 'allow',
  requireParameters: false,
  quantizations: null,
  preferredMaxLatency: null,
  preferredMinThroughput: null,
  enforceDistillableText: false,
});

const KEYS = [
  'allow_fallbacks',
  'data_collection',
  'enforce_distillable_text',
  'ignore',
  'max_price',
  'only',
  'order',
  'preferred_max_latency',
  'preferred_min_throughput',
  'quantizations',
  'require_parameters',
  'sort',
  'zdr',
];
const SORTS: readonly SortBy[] = ['price', 'throughput', 'latency', 'exacto'];
const PARTITIONS: readonly Partition[] = ['model', 'none'];
const PRICE_KEYS = ['prompt', 'completion', 'image', 'audio', 'request'] as const;
const PERCENTILE_KEYS = ['p50', 'p75', 'p90', 'p99'] as const;

class Collector {
  readonly errors: PreferenceError[] = [];

  fail(field: string, message: string): undefined {
    this.errors.push({ field: `provider.${field}`, message });
    return undefined;
  }

  unknownKeys(value: Record<string, unknown>, allowed: readonly string[], prefix: string): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.fail(`${prefix}${key}`, `unknown field; allowed: ${allowed.join(', ')}`);
    }
  }

  bool(input: Record<string, unknown>, key: string): boolean | undefined {
    const value = input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') return this.fail(key, 'must be a boolean');
    return value;
  }

  enumValue<T extends string>(
    input: Record<string, unknown>,
    key: string,
    allowed: readonly T[],
    prefix = '',
  ): T | undefined {
    const value = input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      return this.fail(`${prefix}${key}`, `must be one of ${allowed.join(', ')}`);
    }
    return value as T;
  }

  strings(input: Record<string, unknown>, key: string): string[] | undefined {
    const value = input[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) return this.fail(key, 'must be an array of strings');
    const out: string[] = [];
    value.forEach((item: unknown, index) => {
      if (typeof item !== 'string' || item.trim() === '') this.fail(`${key}[${index}]`, 'must be a non-empty string');
      else out.push(item.trim());
    });
    return out;
  }

  /** A number ≥ 0, or a numeric string (max_price is typed as strings in the SDK). */
  amount(value: unknown, field: string): number | undefined {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
      return this.fail(field, 'must be a non-negative number or numeric string');
    }
    return n;
  }

  maxPrice(value: unknown): MaxPrice | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isRecord(value)) return this.fail('max_price', 'must be an object');
    this.unknownKeys(value, PRICE_KEYS, 'max_price.');
    const out: Record<string, number> = {};
    for (const key of PRICE_KEYS) {
      if (value[key] === undefined || value[key] === null) continue;
      const n = this.amount(value[key], `max_price.${key}`);
      if (n !== undefined) out[key] = n;
    }
    return out;
  }

  percentiles(value: unknown, key: string): Percentiles | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number') {
      return Number.isFinite(value) && value >= 0 ? { p50: value } : this.fail(key, 'must be a non-negative number');
    }
    if (!isRecord(value)) return this.fail(key, 'must be a number or an object {p50, p75, p90, p99}');
    this.unknownKeys(value, PERCENTILE_KEYS, `${key}.`);
    const out: Record<string, number> = {};
    for (const p of PERCENTILE_KEYS) {
      const item = value[p];
      if (item === undefined || item === null) continue;
      if (typeof item !== 'number' || !Number.isFinite(item) || item < 0)
        this.fail(`${key}.${p}`, 'must be a non-negative number');
      else out[p] = item;
    }
    return out;
  }

  sort(value: unknown): ProviderPreferences['sort'] | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') {
      const by = this.enumValue({ sort: value }, 'sort', SORTS);
      return by === undefined ? undefined : { by, partition: 'model' };
    }
    if (!isRecord(value)) return this.fail('sort', `must be one of ${SORTS.join(', ')} or an object {by, partition}`);
    this.unknownKeys(value, ['by', 'partition'], 'sort.');
    const by = this.enumValue(value, 'by', SORTS, 'sort.') ?? null;
    const partition = this.enumValue(value, 'partition', PARTITIONS, 'sort.') ?? 'model';
    return { by, partition };
  }
}

export function validateProviderPreferences(input: unknown): PreferencesValidation {
  if (input === undefined || input === null) return { ok: true, value: DEFAULT_PREFERENCES };
  const c = new Collector();
  if (!isRecord(input)) {
    return { ok: false, errors: [{ field: 'provider', message: 'must be an object' }] };
  }
  c.unknownKeys(input, KEYS, '');
  const quantizations = c.strings(input, 'quantizations');
  quantizations?.forEach((q, index) => {
    if (!(QUANTIZATIONS as readonly string[]).includes(q))
      c.fail(`quantizations[${index}]`, `must be one of ${QUANTIZATIONS.join(', ')}`);
  });
  const value: ProviderPreferences = {
    order: c.strings(input, 'order') ?? null,
    only: c.strings(input, 'only') ?? null,
    ignore: c.strings(input, 'ignore') ?? null,
    allowFallbacks: c.bool(input, 'allow_fallbacks') ?? true,
    sort: c.sort(input['sort']) ?? null,
    maxPrice: c.maxPrice(input['max_price']) ?? null,
    zdr: c.bool(input, 'zdr') ?? false,
    dataCollection: c.enumValue(input, 'data_collection', ['allow', 'deny'] as const) ?? 'allow',
    requireParameters: c.bool(input, 'require_parameters') ?? false,
    quantizations: (quantizations as Quantization[] | undefined) ?? null,
    preferredMaxLatency: c.percentiles(input['preferred_max_latency'], 'preferred_max_latency') ?? null,
    preferredMinThroughput: c.percentiles(input['preferred_min_throughput'], 'preferred_min_throughput') ?? null,
    enforceDistillableText: c.bool(input, 'enforce_distillable_text') ?? false,
  };
  return c.errors.length > 0 ? { ok: false, errors: c.errors } : { ok: true, value };
}
