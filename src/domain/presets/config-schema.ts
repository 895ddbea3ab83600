import { Type, type TSchema } from '@sinclair/typebox';
import { CHAT_FIELD_SCHEMAS, ChatRequestSchema, PRESET_FIELDS } from '../../canonical/index.js';

export { PRESET_FIELDS } from '../../canonical/index.js';

function pick(): Record<string, TSchema> {
  const out: Record<string, TSchema> = {};
  for (const field of PRESET_FIELDS) out[field] = CHAT_FIELD_SCHEMAS[field];
  return out;
}

/** A stored preset config: the preset fields, each with the chat request's own type and range. */
export const PresetConfigSchema = Type.Object(pick(), { additionalProperties: false });

/**
 * Body of `POST /presets/{slug}/chat/completions`: a chat-completions request whose preset
 * fields are type-checked; `messages` may be left out (a preset needs none). Other fields are
 * accepted and ignored.
 */
export const PresetCreateBodySchema = Type.Object(
  { ...ChatRequestSchema.properties, ...pick(), messages: Type.Optional(ChatRequestSchema.properties.messages) },
  { additionalProperties: true },
);
