import { Type, type TSchema } from '@sinclair/typebox';
import { ChatRequestSchema } from '../../gateway/request-schema.js';
import { Nullable } from '../../http/schemas/common.js';

/**
 * The request fields a preset version keeps (reference §4.1: "only fields that overlap the
 * preset config"): model choice, routing, sampling, output limits, tools and output format.
 * Per-call fields (messages, stream, user, session_id, metadata, prediction, trace, debug,
 * cache keys) are not configuration and are dropped; the system prompt is kept apart.
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
] as const;

export type PresetField = (typeof PRESET_FIELDS)[number];

const Effort = Type.Union(['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none'].map((v) => Type.Literal(v)));
const LooseObject = Type.Object({}, { additionalProperties: true });

/** Fields the chat schema forwards without typing them; a preset stores them, so their shape is checked. */
const extraFields: Record<string, TSchema> = {
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

const chatProperties: Record<string, TSchema> = ChatRequestSchema.properties;

function pick(): Record<string, TSchema> {
  const out: Record<string, TSchema> = {};
  for (const field of PRESET_FIELDS) {
    const schema = chatProperties[field] ?? extraFields[field];
    if (schema !== undefined) out[field] = schema;
  }
  return out;
}

/** A stored preset config: the preset fields, each with the chat request's own type and range. */
export const PresetConfigSchema = Type.Object(pick(), { additionalProperties: false });

/**
 * Body of `POST /presets/{slug}/chat/completions`: a chat-completions request (reference §4.1)
 * whose preset fields are type-checked; `messages` may be left out (a preset needs none).
 * Other fields are accepted and ignored.
 */
export const PresetCreateBodySchema = Type.Object(
  { ...chatProperties, ...pick(), messages: Type.Optional(ChatRequestSchema.properties.messages) },
  { additionalProperties: true },
);
