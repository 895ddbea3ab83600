import fc from 'fast-check';
import { HOSTILE_VALUES, RawJson } from './wire-json.js';

/** A JSON Schema node as the OpenAPI document holds it (only what generation reads). */
export type Schema = Record<string, unknown>;

export interface GenContext {
  /** `#/components/schemas/<name>` targets. */
  components: Record<string, Schema>;
  /** Known-good values by property or parameter name (model ids, fixture ids): used often. */
  hints: Record<string, unknown[]>;
}

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function resolve(schema: Schema, ctx: GenContext): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = ctx.components[ref.replace('#/components/schemas/', '')];
  return target === undefined ? {} : resolve(target, ctx);
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function stringArb(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (schema.format === 'email') return fc.emailAddress();
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((s) => s.length <= 200);
    } catch {
      // A pattern JavaScript cannot compile: fall back to plain strings.
    }
  }
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.max(minLength, Math.min(num(schema.maxLength) ?? 24, 24));
  return fc.string({ minLength, maxLength });
}

function numberArb(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = Math.max(num(schema.minimum) ?? -1e6, -1e6);
  const max = Math.min(num(schema.maximum) ?? 1e6, 1e6);
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
  return fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
}

/** Values at and just past the schema's own bounds. */
export function boundaryValues(schema: Schema): unknown[] {
  const out: unknown[] = [];
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const bound = num(schema[key]);
    if (bound !== undefined) out.push(bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5);
  }
  for (const key of ['minLength', 'maxLength']) {
    const bound = num(schema[key]);
    if (bound !== undefined) out.push('a'.repeat(bound), 'a'.repeat(bound + 1), 'a'.repeat(Math.max(0, bound - 1)));
  }
  for (const key of ['minItems', 'maxItems']) {
    const bound = num(schema[key]);
    if (bound !== undefined && bound <= 2000) out.push(Array.from({ length: bound + 1 }, () => 'a'));
  }
  return out;
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return typeof schema.type === 'string' ? [schema.type] : [];
}

/**
 * A value valid for `schema` (as far as a generator can tell: patterns and formats are
 * approximated), with `hints` for the property `name` mixed in.
 */
export function validArb(schema: Schema, ctx: GenContext, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, ctx);
  const hint = ctx.hints[name];
  const own = validOwn(s, ctx, depth);
  return hint !== undefined && hint.length > 0
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hint) }, { weight: 1, arbitrary: own })
    : own;
}

function validOwn(s: Schema, ctx: GenContext, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  for (const key of ['anyOf', 'oneOf']) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0) {
      return fc.oneof(...list.filter(isSchema).map((sub) => validArb(sub, ctx, '', depth + 1)));
    }
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0 && isSchema(s.allOf[0])) return validArb(s.allOf[0], ctx, '', depth);
  const types = typesOf(s);
  if (types.length > 1) return fc.oneof(...types.map((type) => validOwn({ ...s, type }, ctx, depth)));
  switch (types[0]) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 5) return fc.constant([]);
      const items = isSchema(s.items) ? validArb(s.items, ctx, '', depth + 1) : fc.jsonValue({ maxDepth: 1 });
      const minLength = num(s.minItems) ?? 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(num(s.maxItems) ?? 3, 3)) });
    }
    case 'object':
    default:
      return objectArb(s, ctx, depth);
  }
}

function objectArb(s: Schema, ctx: GenContext, depth: number): fc.Arbitrary<unknown> {
  const properties = isSchema(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  if (depth > 5) return fc.constant({});
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) {
    if (isSchema(sub)) model[key] = validArb(sub, ctx, key, depth + 1);
  }
  if (Object.keys(model).length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }));
  return fc.record(model, { requiredKeys: required.filter((r) => r in model) });
}

/** Every path to a field of `schema` (objects only, a few levels), for targeted mutation. */
export function fieldPaths(schema: Schema, ctx: GenContext, prefix: string[] = [], depth = 0): string[][] {
  const s = resolve(schema, ctx);
  if (depth > 3 || !isSchema(s.properties)) return [];
  const out: string[][] = [];
  for (const [key, sub] of Object.entries(s.properties)) {
    out.push([...prefix, key]);
    if (isSchema(sub)) out.push(...fieldPaths(sub, ctx, [...prefix, key], depth + 1));
  }
  return out;
}

export function schemaAt(schema: Schema, path: string[], ctx: GenContext): Schema {
  let s = resolve(schema, ctx);
  for (const key of path) {
    const props = isSchema(s.properties) ? s.properties : {};
    const sub = props[key];
    s = isSchema(sub) ? resolve(sub, ctx) : {};
  }
  return s;
}

/** A copy of `value` with the field at `path` set (objects created on the way). */
export function setAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  const base = isSchema(value) && !(value instanceof RawJson) ? { ...value } : {};
  base[head] = setAt(base[head], rest, replacement);
  return base;
}

/** A hostile or boundary replacement for a field of this schema. */
export function hostileArb(schema: Schema, ctx: GenContext): fc.Arbitrary<unknown> {
  const boundaries = boundaryValues(resolve(schema, ctx));
  const hostile = fc.constantFrom(...HOSTILE_VALUES);
  return boundaries.length === 0
    ? hostile
    : fc.oneof({ weight: 2, arbitrary: hostile }, { weight: 1, arbitrary: fc.constantFrom(...boundaries) });
}
