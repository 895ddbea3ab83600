import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable } from './schema-helpers.js';

/**
 * The model-call request vocabulary, declared once. The HTTP body schemas, the TypeScript body
 * types and every field list (typed fields, sampling fields, preset fields, known parameters)
 * come from the property groups below. Fields the gateway does not know are allowed and
 * forwarded upstream (OpenAI-compatible clients send new fields before we know them); every
 * field it does know is type- and range-checked, so a bad value is a 400 naming it.
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
export type ChatMessageBody = Static<typeof ChatMessageSchema>;

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
const Effort = Type.Union(['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none'].map((v) => Type.Literal(v)));
const LooseObject = Type.Object({}, { additionalProperties: true });

/** Which model, routed how, through which preset, streamed or not: read by the gateway. */
const routingFields = {
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 1, maxItems: 20 })),
  provider: Type.Optional(Nullable(LooseObject)),
  preset: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  stream: Type.Optional(Type.Boolean()),
};

/** Sampling parameters every text kind carries (chat and legacy completions). */
const samplingFields = {
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

/** The sampling parameters as a type (canonical requests carry them as they came). */
export const SamplingSchema = Type.Object(samplingFields);
export type SamplingParameters = Static<typeof SamplingSchema>;

/** Chat-only fields the body schema checks. */
const chatFields = {
  messages: Type.Array(ChatMessageSchema, { minItems: 1, maxItems: 10_000 }),
  max_completion_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  logprobs: Type.Optional(Nullable(Type.Boolean())),
  tools: Type.Optional(Type.Array(FunctionTool, { maxItems: 512 })),
  tool_choice: Type.Optional(
    Type.Union([Type.String(), Type.Object({ type: Type.String() }, { additionalProperties: true })]),
  ),
  parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
  response_format: Type.Optional(Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true })),
  metadata: Type.Optional(
    Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 512 }), { maxProperties: 16 }),
  ),
  session_id: Type.Optional(Type.String({ maxLength: 256 })),
};

/**
 * Chat fields a request body forwards without checking them (an upstream judges them), but
 * whose shape is known: adapters translate `reasoning*`, and a stored preset checks them all.
 */
export const forwardedChatFields = {
  reasoning: Type.Optional(
    Type.Object(
      {
        effort: Type.Optional(Nullable(Effort)),
        summary: Type.Optional(
          Nullable(Type.Union([Type.Literal('auto'), Type.Literal('concise'), Type.Literal('detailed')])),
        ),
        max_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
        enabled: Type.Optional(Nullable(Type.Boolean())),
        exclude: Type.Optional(Nullable(Type.Boolean())),
      },
      { additionalProperties: true },
    ),
  ),
  reasoning_effort: Type.Optional(Nullable(Effort)),
  verbosity: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 20 }))),
  plugins: Type.Optional(
    Type.Array(Type.Object({ id: Type.String({ minLength: 1 }) }, { additionalProperties: true }), { maxItems: 50 }),
  ),
  modalities: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 20 }), { maxItems: 10 })),
  service_tier: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 20 }))),
  image_config: Type.Optional(LooseObject),
  stop_server_tools_when: Type.Optional(Type.Array(LooseObject, { minItems: 1, maxItems: 50 })),
};

/** `POST /chat/completions` body. */
export const ChatRequestSchema = Type.Object(
  { ...routingFields, ...samplingFields, ...chatFields },
  { additionalProperties: true },
);
export type ChatRequestBody = Static<typeof ChatRequestSchema>;

/** `POST /completions` body (legacy completions). */
export const CompletionRequestSchema = Type.Object(
  {
    ...routingFields,
    ...samplingFields,
    prompt: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 128 })]),
  },
  { additionalProperties: true },
);
export type CompletionRequestBody = Static<typeof CompletionRequestSchema>;

/** Every chat field whose schema is known: checked on the body, or forwarded and checked in presets. */
export const CHAT_FIELD_SCHEMAS: Readonly<Record<ChatField, TSchema>> = {
  ...ChatRequestSchema.properties,
  ...forwardedChatFields,
};
export type ChatField = keyof typeof ChatRequestSchema.properties | keyof typeof forwardedChatFields;

/**
 * Fields the gateway itself consumes (routing, presets, plugins, observability) and never
 * forwards upstream. `stream_options` is set by the adapter itself.
 */
export const GATEWAY_ONLY_FIELDS: ReadonlySet<string> = new Set([
  'models',
  'provider',
  'plugins',
  'preset',
  'route',
  'transforms',
  'usage',
  'session_id',
  'trace',
  'debug',
  'stream_options',
  'stop_server_tools_when',
]);

const keys = <T extends object>(o: T) => Object.keys(o) as (keyof T & string)[];

/** Sampling parameters shared by chat and legacy completions (copied when converting one to the other). */
export const SHARED_SAMPLING_FIELDS: readonly (keyof typeof samplingFields)[] = keys(samplingFields);

/** Chat fields the adapters type; every other field meant for the upstream travels in `extra`. */
export const TYPED_CHAT_FIELDS: readonly ChatField[] = [
  ...keys(ChatRequestSchema.properties).filter((f) => !GATEWAY_ONLY_FIELDS.has(f)),
  'reasoning',
  'reasoning_effort',
];

/** Legacy-completion fields the adapters type. */
export const TYPED_COMPLETION_FIELDS: readonly string[] = keys(CompletionRequestSchema.properties).filter(
  (f) => !GATEWAY_ONLY_FIELDS.has(f),
);

/**
 * The request fields a preset version keeps: model choice, routing, sampling, output limits,
 * tools and output format. Per-call fields (messages, stream, user, session_id, metadata,
 * prediction, trace, debug, cache keys) are not configuration and are dropped; the system
 * prompt is kept apart. The order is the order of a stored config's keys.
 */
export const PRESET_FIELDS = [
  'model',
  'models',
  'provider',
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'top_a',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'seed',
  'stop',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'max_tokens',
  'max_completion_tokens',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning',
  'reasoning_effort',
  'verbosity',
  'plugins',
  'modalities',
  'service_tier',
  'image_config',
  'stop_server_tools_when',
] as const satisfies readonly ChatField[];

/**
 * Every name a model's `supported_parameters` may list: the request fields a model may or may
 * not honour, plus capabilities that are not one field (`structured_outputs`, …).
 */
export const KNOWN_PARAMETERS: readonly string[] = Object.freeze([
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'top_a',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'max_tokens',
  'max_completion_tokens',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'prediction',
  'seed',
  'response_format',
  'structured_outputs',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'include_reasoning',
  'reasoning',
  'reasoning_effort',
  'web_search_options',
  'verbosity',
] satisfies readonly (ChatField | 'prediction' | 'structured_outputs' | 'include_reasoning' | 'web_search_options')[]);
