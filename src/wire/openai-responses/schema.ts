import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../canonical/index.js';

const LooseObject = Type.Object({}, { additionalProperties: true });

/**
 * `POST /responses` body: the fields Switchyard reads are type- and range-checked here (a 400
 * naming the field); item and content shapes are checked by the decoder, which names
 * `input[i].content[j]…`. Other fields are accepted (and forwarded where chat has them).
 */
export const ResponsesRequestSchema = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 1, maxItems: 20 })),
    provider: Type.Optional(Nullable(LooseObject)),
    preset: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    stream: Type.Optional(Nullable(Type.Boolean())),
    input: Type.Optional(Type.Union([Type.String(), Type.Array(LooseObject, { maxItems: 10_000 })])),
    instructions: Type.Optional(Nullable(Type.String())),
    tools: Type.Optional(Nullable(Type.Array(LooseObject, { maxItems: 512 }))),
    tool_choice: Type.Optional(Nullable(Type.Union([Type.String(), LooseObject]))),
    parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
    max_output_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
    top_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
    top_logprobs: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
    text: Type.Optional(Nullable(LooseObject)),
    reasoning: Type.Optional(Nullable(LooseObject)),
    metadata: Type.Optional(
      Nullable(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 512 }), { maxProperties: 16 })),
    ),
    store: Type.Optional(Nullable(Type.Boolean())),
    previous_response_id: Type.Optional(Nullable(Type.String())),
    conversation: Type.Optional(Nullable(Type.Union([Type.String(), LooseObject]))),
    user: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
);
export type ResponsesRequestBody = Static<typeof ResponsesRequestSchema>;
