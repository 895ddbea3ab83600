import { Type } from '@sinclair/typebox';

/** Anthropic's error body, for the OpenAPI document and the serializer of the Messages routes. */
export const AnthropicErrorSchema = Type.Object({
  type: Type.Literal('error'),
  error: Type.Object({ type: Type.String(), message: Type.String() }),
});
