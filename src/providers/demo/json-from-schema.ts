import { isRecord, type JsonRecord } from '../../canonical/json.js';

/**
 * A JSON value valid against a JSON Schema, for the demo provider's structured outputs. Covers
 * what structured-output clients send (OpenAI strict schemas, zod-to-json-schema, LangChain):
 * `type` (one or a list), `enum`, `const`, objects (`properties`, `required`, every listed
 * property is filled), arrays (`items`, `prefixItems`, `minItems`), strings (`minLength`,
 * `maxLength`, common `format`s), numbers and integers (`minimum`, `maximum`, exclusive bounds,
 * `multipleOf`), booleans, null, `anyOf`/`oneOf` (the first branch), `allOf` (merged) and local
 * `$ref`s (`#/$defs/…`, `#/definitions/…`). `pattern` is not honoured.
 */
export function jsonFromSchema(schema: unknown, text = 'demo'): unknown {
  return new Generator(isRecord(schema) ? schema : {}, text).value(schema, 0, 'value');
}

const MAX_DEPTH = 12;

class Generator {
  constructor(
    private readonly root: JsonRecord,
    private readonly text: string,
  ) {}

  value(raw: unknown, depth: number, name: string): unknown {
    if (raw === true || !isRecord(raw)) return this.text;
    let schema = this.resolve(raw);
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches: unknown = schema[key];
      if (Array.isArray(branches) && branches.length > 0) {
        const list: unknown[] = branches;
        const pick: unknown = depth >= MAX_DEPTH ? (list.find((b) => isNullSchema(b)) ?? list[0]) : list[0];
        return this.value(pick, depth + 1, name);
      }
    }
    if (Array.isArray(schema.allOf)) schema = this.merge(schema);
    const type = this.typeOf(schema, depth);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return true;
      case 'integer':
      case 'number':
        return numberFor(schema, type === 'integer');
      case 'string':
        return this.stringFor(schema, name);
      case 'array':
        return this.arrayFor(schema, depth, name);
      default:
        return this.objectFor(schema, depth);
    }
  }

  private resolve(schema: JsonRecord): JsonRecord {
    let current = schema;
    for (let hops = 0; hops < 32 && typeof current.$ref === 'string'; hops++) {
      const target = this.pointer(current.$ref);
      if (target === null) break;
      const rest: JsonRecord = { ...current };
      delete rest.$ref;
      current = { ...target, ...rest };
    }
    return current;
  }

  private pointer(ref: string): JsonRecord | null {
    if (ref === '#') return this.root;
    if (!ref.startsWith('#/')) return null;
    let node: unknown = this.root;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = isRecord(node) ? node[key] : undefined;
    }
    return isRecord(node) ? node : null;
  }

  private merge(schema: JsonRecord): JsonRecord {
    const out: JsonRecord = { ...schema };
    delete out.allOf;
    const properties: JsonRecord = isRecord(schema.properties) ? { ...schema.properties } : {};
    const required = new Set<string>(stringList(schema.required));
    for (const part of schema.allOf as unknown[]) {
      if (!isRecord(part)) continue;
      const resolved = this.resolve(part);
      for (const [key, value] of Object.entries(resolved)) {
        if (key === 'properties' && isRecord(value)) Object.assign(properties, value);
        else if (key === 'required') for (const r of stringList(value)) required.add(r);
        else if (out[key] === undefined) out[key] = value;
      }
    }
    if (Object.keys(properties).length > 0) out.properties = properties;
    if (required.size > 0) out.required = [...required];
    return out;
  }

  private typeOf(schema: JsonRecord, depth: number): string {
    const declared = schema.type;
    const types = typeof declared === 'string' ? [declared] : stringList(declared);
    if (types.length > 0) {
      if (depth >= MAX_DEPTH && types.includes('null')) return 'null';
      return types.find((t) => t !== 'null') ?? 'null';
    }
    if (isRecord(schema.properties) || schema.additionalProperties !== undefined) return 'object';
    if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
    return 'string';
  }

  private stringFor(schema: JsonRecord, name: string): string {
    const format = typeof schema.format === 'string' ? schema.format : '';
    const formatted = FORMATS[format];
    if (formatted !== undefined) return formatted;
    const min = nonNegative(schema.minLength) ?? 0;
    const max = nonNegative(schema.maxLength);
    let out = name === 'value' ? this.text : `${this.text} (${name})`;
    if (out.length < min) out = out.padEnd(min, '.');
    if (max !== undefined && out.length > max) out = out.slice(0, max);
    return out;
  }

  private arrayFor(schema: JsonRecord, depth: number, name: string): unknown[] {
    const prefix: unknown[] = Array.isArray(schema.prefixItems) ? (schema.prefixItems as unknown[]) : [];
    const min = nonNegative(schema.minItems) ?? 0;
    const max = nonNegative(schema.maxItems);
    let count = Math.max(min, prefix.length, depth >= MAX_DEPTH ? 0 : 1);
    if (max !== undefined) count = Math.min(count, max);
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const item: unknown = i < prefix.length ? prefix[i] : schema.items === false ? undefined : schema.items;
      out.push(this.value(item ?? {}, depth + 1, name));
    }
    return out;
  }

  private objectFor(schema: JsonRecord, depth: number): JsonRecord {
    const out: JsonRecord = {};
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(stringList(schema.required));
    for (const [key, prop] of Object.entries(properties)) {
      // Past the depth limit only required properties are filled (a recursive schema ends).
      if (depth >= MAX_DEPTH && !required.has(key)) continue;
      out[key] = this.value(prop, depth + 1, key);
    }
    for (const key of required) if (!(key in out)) out[key] = this.text;
    return out;
  }
}

const FORMATS: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  email: 'demo@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

function numberFor(schema: JsonRecord, integer: boolean): number {
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const step = num(schema.multipleOf) ?? (integer ? 1 : undefined);
  let low = num(schema.minimum);
  const exclusiveLow = num(schema.exclusiveMinimum);
  if (exclusiveLow !== undefined) low = Math.max(low ?? -Infinity, exclusiveLow + (step ?? 1e-6));
  let high = num(schema.maximum);
  const exclusiveHigh = num(schema.exclusiveMaximum);
  if (exclusiveHigh !== undefined) high = Math.min(high ?? Infinity, exclusiveHigh - (step ?? 1e-6));
  let value = low ?? (high !== undefined ? Math.min(1, high) : 1);
  if (step !== undefined && step > 0) {
    value = Math.ceil(value / step - 1e-9) * step;
    if (high !== undefined && value > high) value = Math.floor(high / step + 1e-9) * step;
  }
  // `+ 0` turns -0 (from rounding a tiny negative) into 0.
  return (integer ? Math.round(value) : value) + 0;
}

function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && schema.type === 'null';
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function nonNegative(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
