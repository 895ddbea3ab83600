import { Type } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer(),
      message: Type.String(),
      metadata: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
    }),
    user_id: Type.Optional(Nullable(Type.String())),
  },
  { $id: 'ErrorEnvelope' },
);

/** The largest page offset: far beyond any list, and within every database's OFFSET range. */
export const MAX_OFFSET = 2_147_483_647;

/** Paging: offset 0..MAX_OFFSET (default 0, may be null), limit 1..100 (default 50). */
export const PageQuery = Type.Object({
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 }))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
});

export function pageOf(query: { offset?: number | null; limit?: number }): { offset: number; limit: number } {
  return { offset: query.offset ?? 0, limit: query.limit ?? 50 };
}

export const Deleted = Type.Object({ deleted: Type.Literal(true) });

const errorResponse = (description: string) => ({ ...Type.Ref(ErrorEnvelope), description });

/** Standard error responses for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const descriptions: Record<number, string> = {
    400: 'Invalid request parameters',
    401: 'Missing or invalid credentials',
    402: 'Spending limit reached',
    403: 'Not allowed for this key',
    404: 'Resource not found',
    409: 'Conflict',
    413: 'Request payload too large',
    500: 'Internal Server Error',
  };
  return Object.fromEntries(statuses.map((s) => [s, errorResponse(descriptions[s] ?? 'Error')]));
}

/** The API surface a generation came in on (`api_surface`). */
export const ApiSurfaceSchema = Type.Union([
  Type.Literal('chat'),
  Type.Literal('completions'),
  Type.Literal('messages'),
  Type.Literal('responses'),
  Type.Literal('embeddings'),
]);
