import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors/index.js';

const dropProto = (key: string, value: unknown): unknown => (key === '__proto__' ? undefined : value);

/**
 * Parses a JSON body; `__proto__` keys are dropped (prototype-pollution guard). A reviver makes
 * JSON.parse several times slower (one call per value), so it runs only when the text could hold
 * such a key: the literal name, or a `\u` escape that might spell it. Otherwise the plain parse
 * gives the very same value.
 */
export function parseJsonBody(text: string): unknown {
  return text.includes('__proto__') || text.includes('\\u') ? JSON.parse(text, dropProto) : JSON.parse(text);
}

/** Deepest nesting of objects and arrays a body may have; deeper is refused with 400. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects/arrays deeper than `MAX_JSON_DEPTH`. Walks values, not text (a
 * long prompt is one string), and stops at the first container past the limit, so a body nested
 * 100,000 deep costs 65 steps; code that recurses into bodies never sees such depth.
 */
export function nestedTooDeep(value: unknown, depth = 1): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_JSON_DEPTH) return true;
  if (Array.isArray(value)) return value.some((item) => nestedTooDeep(item, depth + 1));
  for (const key in value) {
    if (nestedTooDeep((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

/**
 * A JSON request body's value: undefined for an empty body (a POST without payload, e.g. rotate,
 * is no body, not malformed JSON); throws a 400 for nesting deeper than `MAX_JSON_DEPTH`, and
 * JSON.parse's SyntaxError for malformed text (rendered as a 400). Both edges parse with it: the
 * `application/json` parser below and the lean model-call edge (src/http/edge).
 */
export function readJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = parseJsonBody(text);
  } catch (error) {
    // JSON.parse with a reviver recurses: thousands of levels overflow the stack before the
    // depth check can run. That is the client's nesting, not a server fault.
    if (error instanceof RangeError) throw tooDeep();
    throw error instanceof Error ? error : new Error(String(error));
  }
  if (nestedTooDeep(value)) throw tooDeep();
  return value;
}

const tooDeep = (): Error => errors.invalidRequest(`JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);

/** The `application/json` parser (`readJsonBody`). */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    let value: unknown;
    try {
      value = readJsonBody(typeof body === 'string' ? body : body.toString('utf8'));
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    done(null, value);
  });
}
