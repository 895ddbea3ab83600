import fc from 'fast-check';
import { fieldPaths, hostileArb, schemaAt, setAt, validArb, type GenContext, type Schema } from './schema-arbitrary.js';
import {
  HOSTILE_BODY_TEXTS,
  HOSTILE_PATH_SEGMENTS,
  HOSTILE_QUERY_VALUES,
  toWireJson,
  toWireText,
} from './wire-json.js';

interface Parameter {
  name: string;
  schema: Schema;
  required: boolean;
}

/** One operation of the OpenAPI document, as the fuzzer drives it. */
export interface Operation {
  id: string;
  method: string;
  /** Path template below the API prefix, e.g. `/keys/{hash}`. */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body: Schema | null;
}

/**
 * Operations not fuzzed, each with its reason. Every other operation of the document is, so a
 * route added later is covered without touching this suite. Model calls are fuzzed too: the
 * catalog of the fuzzed server is the offline `demo` provider, so they reach no network.
 */
export const EXCLUDED_OPERATIONS: ReadonlyMap<string, string> = new Map<string, string>([]);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function operationsOf(doc: unknown): Operation[] {
  if (!isRecord(doc) || !isRecord(doc.paths)) throw new Error('not an OpenAPI document');
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const id = `${method.toUpperCase()} ${path}`;
      if (EXCLUDED_OPERATIONS.has(id)) continue;
      const params = (Array.isArray(op.parameters) ? op.parameters : []).filter(isRecord);
      const param = (p: Record<string, unknown>): Parameter => ({
        name: String(p.name),
        schema: isRecord(p.schema) ? p.schema : {},
        required: p.required === true,
      });
      const content = isRecord(op.requestBody) && isRecord(op.requestBody.content) ? op.requestBody.content : {};
      const json = content['application/json'];
      out.push({
        id,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map(param),
        queryParams: params.filter((p) => p.in === 'query').map(param),
        body: isRecord(json) && isRecord(json.schema) ? json.schema : null,
      });
    }
  }
  return out;
}

/** One generated request: what the runner sends. */
export interface FuzzRequest {
  op: Operation;
  kind: string;
  url: string;
  body: string | undefined;
}

interface Parts {
  path: Record<string, string>;
  query: [string, string][];
  body: unknown;
}

function render(op: Operation, kind: string, parts: Parts, rawBody?: string): FuzzRequest {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => parts.path[name] ?? 'x');
  const query = parts.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const body = rawBody ?? (op.body === null && parts.body === undefined ? undefined : toWireJson(parts.body ?? {}));
  return { op, kind, url: query === '' ? path : `${path}?${query}`, body };
}

function validParts(op: Operation, ctx: GenContext): fc.Arbitrary<Parts> {
  const path = fc.record(
    Object.fromEntries(
      op.pathParams.map((p) => [p.name, validArb(p.schema, ctx, p.name).map((v) => encodeURIComponent(toWireText(v)))]),
    ),
  );
  const query = fc.tuple(
    ...op.queryParams.map((p) =>
      p.required
        ? validArb(p.schema, ctx, p.name).map((v): [string, string][] => [[p.name, toWireText(v)]])
        : fc
            .option(validArb(p.schema, ctx, p.name), { nil: undefined })
            .map((v): [string, string][] => (v === undefined ? [] : [[p.name, toWireText(v)]])),
    ),
  );
  const body = op.body === null ? fc.constant(undefined) : validArb(op.body, ctx);
  return fc.record({ path, query: query.map((lists) => lists.flat()), body });
}

/** Valid, boundary and invalid requests for one operation, in proportions that favour the hostile. */
export function requestArb(op: Operation, ctx: GenContext): fc.Arbitrary<FuzzRequest> {
  const valid = validParts(op, ctx);
  const kinds: fc.WeightedArbitrary<FuzzRequest>[] = [
    { weight: 3, arbitrary: valid.map((parts) => render(op, 'valid', parts)) },
  ];
  const fields = op.body === null ? [] : fieldPaths(op.body, ctx);
  const body = op.body;
  if (body !== null) {
    if (fields.length > 0) {
      const mutated = fc
        .constantFrom(...fields)
        .chain((path) => fc.tuple(fc.constant(path), hostileArb(schemaAt(body, path, ctx), ctx)));
      kinds.push({
        weight: 4,
        arbitrary: fc
          .tuple(valid, mutated)
          .map(([parts, [path, value]]) =>
            render(op, 'body-field', { ...parts, body: setAt(parts.body, path, value) }),
          ),
      });
    }
    kinds.push({
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
        .map(([parts, key, value]) =>
          render(op, 'unknown-field', { ...parts, body: setAt(parts.body, [`zz_${key}`], value) }),
        ),
    });
    kinds.push({
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...HOSTILE_BODY_TEXTS))
        .map(([parts, text]) => render(op, 'body-text', parts, text)),
    });
  }
  if (op.pathParams.length > 0) {
    kinds.push({
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...op.pathParams.map((p) => p.name)), fc.constantFrom(...HOSTILE_PATH_SEGMENTS))
        .map(([parts, name, segment]) => render(op, 'path', { ...parts, path: { ...parts.path, [name]: segment } })),
    });
  }
  const queryNames = [...op.queryParams.map((p) => p.name), 'offset', 'limit', 'zz_unknown'];
  kinds.push({
    weight: 2,
    arbitrary: fc
      .tuple(valid, fc.constantFrom(...queryNames), fc.constantFrom(...HOSTILE_QUERY_VALUES))
      .map(([parts, name, value]) =>
        render(op, 'query', { ...parts, query: [...parts.query.filter(([k]) => k !== name), [name, value]] }),
      ),
  });
  return fc.oneof(...kinds);
}
