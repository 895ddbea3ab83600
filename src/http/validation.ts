import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { errors, type GatewayError } from '../errors/index.js';

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = addFormatsImport as unknown as AddFormats;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

// JSON bodies are taken as typed: "5" is not a number. Query strings and paths are text, so
// there numbers and booleans are coerced.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const validate: ValidateFunction = ajv.compile(schema as object);
  // `true` keeps the value Fastify holds (Ajv applies defaults in place): no result object per request.
  return (data: unknown) => (validate(data) ? true : { error: toGatewayError(validate.errors ?? [], httpPart) });
};

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
