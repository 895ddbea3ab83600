import { Type, type Static } from '@sinclair/typebox';

/**
 * The Anthropic Messages request body. Content blocks and tools are checked here for their
 * `type` only; the decoder checks each kind's fields and names the one that is wrong, so the
 * 400 says `messages[2].content[0].source.data` rather than "does not match any of 9 schemas".
 * Fields Switchyard does not know are kept: an Anthropic upstream receives them unchanged.
 */
const Block = Type.Object({ type: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: true });

const Content = Type.Union([Type.String(), Type.Array(Block, { maxItems: 10_000 })]);

// `system` entries inside `messages` are a newer Messages feature (instructions mid-conversation).
const Message = Type.Object(
  {
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('system')]),
    content: Content,
  },
  { additionalProperties: true },
);

const Tool = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128 }),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    description: Type.Optional(Type.String()),
    input_schema: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

const ToolChoice = Type.Object(
  {
    type: Type.Union([Type.Literal('auto'), Type.Literal('any'), Type.Literal('tool'), Type.Literal('none')]),
    name: Type.Optional(Type.String({ minLength: 1 })),
    disable_parallel_tool_use: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const Thinking = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 32 }),
    budget_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: true },
);

/** Fields shared by a message request and a token count. */
const shared = {
  model: Type.String({ minLength: 1, maxLength: 300 }),
  // Switchyard's own routing fields, as on chat; never sent to the upstream.
  models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 1, maxItems: 20 })),
  provider: Type.Optional(Type.Object({}, { additionalProperties: true })),
  preset: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  system: Type.Optional(Type.Union([Type.String(), Type.Array(Block, { maxItems: 1000 })])),
  messages: Type.Array(Message, { minItems: 1, maxItems: 10_000 }),
  tools: Type.Optional(Type.Array(Tool, { maxItems: 512 })),
  tool_choice: Type.Optional(ToolChoice),
  thinking: Type.Optional(Thinking),
};

export const MessagesRequestSchema = Type.Object(
  {
    ...shared,
    max_tokens: Type.Integer({ minimum: 1 }),
    stream: Type.Optional(Type.Boolean()),
    stop_sequences: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 64 })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_k: Type.Optional(Type.Integer({ minimum: 0 })),
    metadata: Type.Optional(
      Type.Object(
        { user_id: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])) },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
export type MessagesRequestBody = Static<typeof MessagesRequestSchema>;

export const CountTokensRequestSchema = Type.Object(shared, { additionalProperties: true });
export type CountTokensRequestBody = Static<typeof CountTokensRequestSchema>;

export type MessagesBlock = Static<typeof Block>;
