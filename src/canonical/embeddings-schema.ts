import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './schema-helpers.js';

const TokenIds = Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1 });

/**
 * `POST /embeddings` body (OpenAI's): `input` is a string, up to 2048 strings, one token-id
 * array or up to 2048 of them. Not streamed. Other fields are forwarded to the upstream.
 */
export const EmbeddingsRequestSchema = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 1, maxItems: 20 })),
    provider: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
    preset: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    input: Type.Union([
      Type.String(),
      Type.Array(Type.String(), { minItems: 1, maxItems: 2048 }),
      TokenIds,
      Type.Array(TokenIds, { minItems: 1, maxItems: 2048 }),
    ]),
    dimensions: Type.Optional(Type.Integer({ minimum: 1, maximum: 65_536 })),
    encoding_format: Type.Optional(Type.Union([Type.Literal('float'), Type.Literal('base64')])),
    user: Type.Optional(Type.String({ maxLength: 256 })),
    stream: Type.Optional(Type.Literal(false)),
  },
  { additionalProperties: true },
);
export type EmbeddingsRequestBody = Static<typeof EmbeddingsRequestSchema>;
