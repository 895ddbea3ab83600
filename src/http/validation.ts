import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { errors, type GatewayError } from '../errors/index.js';
import { isRecord } from '../canonical/json.js';

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = addFormatsImport as unknown as AddFormats;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
    // NaN and ±Infinity (JSON's 1e309, a query's "1e309") are not numbers for any schema: they
    // would reach the store and break every later read of the row.
    strictNumbers: true,
  });
  addFormats(ajv);
  return ajv;
}

// JSON bodies are taken as typed: "5" is not a number. Query strings and paths are text, so
// there numbers and booleans are coerced.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

/**
 * Fastify compiles every route's schemas when the server starts; most routes of a deployment are
 * never called, and a compiled validator keeps its generated source and code resident. So each
 * validator is compiled on its route's first request (synchronously, the same Ajv options): the
 * same checks and the same errors, only later.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body' && typeof schema === 'object' && schema !== null) return bodyValidator(schema);
  let compiled: Validator | null = null;
  return (data: unknown) => (compiled ??= compileValidator(schema, httpPart))(data);
};

/** A validator's answer: `true`, or the 400 naming the first violation. */
export type Validator = (data: unknown) => true | { error: GatewayError };

const bodyValidators = new WeakMap<object, Validator>();

/**
 * The validator of a request body schema, compiled on first use, one per schema object: Fastify's
 * route and the lean model-call edge (src/http/edge) validate a body with the same function.
 */
export function bodyValidator(schema: object): Validator {
  let validator = bodyValidators.get(schema);
  if (validator === undefined) {
    let compiled: Validator | null = null;
    validator = (data: unknown) => (compiled ??= compileValidator(schema, 'body'))(data);
    bodyValidators.set(schema, validator);
  }
  return validator;
}

function compileValidator(schema: unknown, httpPart: string | undefined): Validator {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const validate: ValidateFunction = ajv.compile(boundIntegers(schema) as object);
  // `true` keeps the value Fastify holds (Ajv applies defaults in place): no result object per request.
  if (httpPart === 'body') {
    return (data: unknown) => (validate(data) ? true : { error: toGatewayError(validate.errors ?? [], httpPart) });
  }
  return (data: unknown) => {
    const nul = fieldWhere(data, (v) => typeof v === 'string' && v.includes('\0'));
    if (nul !== null) return { error: textError(nul, 'must not contain a NUL character', httpPart) };
    if (!validate(data)) return { error: toGatewayError(validate.errors ?? [], httpPart) };
    // Ajv coerces "1e309" to Infinity and then skips its range checks for it.
    const infinite = fieldWhere(data, (v) => typeof v === 'number' && !Number.isFinite(v));
    return infinite === null ? true : { error: textError(infinite, 'must be a finite number', httpPart) };
  };
}

/**
 * The first field of a path or query (flat, values or arrays of values) for which `bad` holds.
 * Path and query values are identifiers and filters: a NUL character is never one, and
 * PostgreSQL cannot even compare text holding it.
 */
function fieldWhere(data: unknown, bad: (value: unknown) => boolean): string | null {
  if (!isRecord(data)) return null;
  for (const [field, value] of Object.entries(data)) {
    if (Array.isArray(value) ? value.some(bad) : bad(value)) return field;
  }
  return null;
}

function textError(field: string, problem: string, httpPart: string | undefined): GatewayError {
  const part = PART_NAMES[httpPart ?? 'body'] ?? 'body';
  return errors.invalidRequest(`Invalid ${part} parameter: ${field} ${problem}`, { field, location: part });
}

const SAFE = Number.MAX_SAFE_INTEGER;
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

/**
 * A copy of `schema` in which every integer without its own bounds is limited to the safe
 * integers: beyond them a JSON number has lost its digits, and the databases refuse it (an OFFSET
 * of 1e20 is a PostgreSQL error). The route's own schema (and the OpenAPI document) is untouched.
 */
export function boundIntegers(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = { ...schema };
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer')) {
    if (schema.maximum === undefined && schema.exclusiveMaximum === undefined) out.maximum = SAFE;
    if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) out.minimum = -SAFE;
  }
  for (const key of SUBSCHEMAS) if (schema[key] !== undefined) out[key] = boundIntegers(schema[key]);
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map(boundIntegers);
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (isRecord(map)) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, boundIntegers(v)]));
  }
  return out;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Turns the first schema violation into a 400 that names the field. */
export function toGatewayError(list: ErrorObject[], httpPart: string | undefined): GatewayError {
  const first = list[0];
  const part = PART_NAMES[httpPart ?? 'body'] ?? 'body';
  if (first === undefined) return errors.invalidRequest();
  const path = first.instancePath
    .split('/')
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`))
    .join('')
    .replace(/^\./, '');
  const params = first.params as Record<string, unknown>;
  let field = path;
  let message: string;
  if (first.keyword === 'required' && typeof params.missingProperty === 'string') {
    field = path === '' ? params.missingProperty : `${path}.${params.missingProperty}`;
    message = `${field} is required`;
  } else if (first.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    field = path === '' ? params.additionalProperty : `${path}.${params.additionalProperty}`;
    message = `${field} is not a recognised field`;
  } else if (first.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message = `${field || part} must be one of: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  } else {
    message = `${field || part} ${first.message ?? 'is invalid'}`;
  }
  return errors.invalidRequest(`Invalid ${part} parameter: ${message}`, { field: field || null, location: part });
}
