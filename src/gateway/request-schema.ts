import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../http/schemas/common.js';

/**
 * Schemas of the model-call bodies. Fields the gateway does not know are allowed and forwarded
 * upstream (OpenAI-compatible clients send new fields before we know them); every field it does
 * know is type- and range-checked so a bad value is a 400 naming it, never an upstream surprise.
 */
const ContentPart = Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true });
const Content = Type.Union([Type.String(), Type.Array(ContentPart)]);

const ToolCall = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('function'),
    function: Type.Object(
      { name: Type.String({ minLength: 1 }), arguments: Type.String() },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

export const ChatMessageSchema = Type.Object(
  {
    role: Type.Union([
      Type.Literal('system'),
      Type.Literal('developer'),
      Type.Literal('user'),
      Type.Literal('assistant'),
      Type.Literal('tool'),
    ]),
    content: Type.Optional(Nullable(Content)),
    name: Type.Optional(Type.String()),
    tool_call_id: Type.Optional(Type.String({ minLength: 1 })),
    tool_calls: Type.Optional(Type.Array(ToolCall)),
  },
  { additionalProperties: true },
);

const FunctionTool = Type.Object(
  {
    type: Type.String({ minLength: 1 }),
    function: Type.Optional(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 64 }),
          description: Type.Optional(Type.String()),
          parameters: Type.Optional(Type.Object({}, { additionalProperties: true })),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);

const Stop = Nullable(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 4 })]));

/** Sampling and routing fields shared by chat and legacy completions. */
const common = {
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 1, maxItems: 20 })),
  provider: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
  preset: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  stream: Type.Optional(Type.Boolean()),
  max_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
  top_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  top_k: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  min_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  top_a: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  frequency_penalty: Type.Optional(Nullable(Type.Number({ minimum: -2, maximum: 2 }))),
  presence_penalty: Type.Optional(Nullable(Type.Number({ minimum: -2, maximum: 2 }))),
  repetition_penalty: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 2 }))),
  seed: Type.Optional(Nullable(Type.Integer())),
  stop: Type.Optional(Stop),
  logit_bias: Type.Optional(Nullable(Type.Record(Type.String(), Type.Number({ minimum: -100, maximum: 100 })))),
  top_logprobs: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
  user: Type.Optional(Type.String({ maxLength: 256 })),
};

export const ChatRequestSchema = Type.Object(
  {
    ...common,
    messages: Type.Array(ChatMessageSchema, { minItems: 1, maxItems: 10_000 }),
    max_completion_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    logprobs: Type.Optional(Nullable(Type.Boolean())),
    tools: Type.Optional(Type.Array(FunctionTool, { maxItems: 512 })),
    tool_choice: Type.Optional(
      Type.Union([Type.String(), Type.Object({ type: Type.String() }, { additionalProperties: true })]),
    ),
    parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
    response_format: Type.Optional(
      Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true }),
    ),
    metadata: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 512 }), { maxProperties: 16 }),
    ),
    session_id: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
);
export type ChatRequestBody = Static<typeof ChatRequestSchema>;

export const CompletionRequestSchema = Type.Object(
  {
    ...common,
    prompt: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 128 })]),
  },
  { additionalProperties: true },
);
export type CompletionRequestBody = Static<typeof CompletionRequestSchema>;
