import { Type, type TSchema } from '@sinclair/typebox';
import { MessagesRequestSchema } from '../../canonical/index.js';
import { Nullable } from '../../canonical/schema-helpers.js';
import { PageQuery } from './common.js';

/** A preset version as answered, in its documented key order. */
export const PresetVersionObject = Type.Object({
  id: Type.String(),
  preset_id: Type.String(),
  version: Type.Integer(),
  config: Type.Object({}, { additionalProperties: true }),
  system_prompt: Type.String(),
  creator_id: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** A preset as answered, in its documented key order (list items carry no designated_version). */
const presetFields = {
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  status: Type.String(),
  status_updated_at: Nullable(Type.String()),
  creator_user_id: Type.String(),
  workspace_id: Type.String(),
  designated_version_id: Nullable(Type.String()),
};
const timestamps = { created_at: Type.String(), updated_at: Type.String() };

export const PresetObject = Type.Object({ ...presetFields, ...timestamps });
export const PresetWithVersionObject = Type.Object({
  ...presetFields,
  designated_version: Nullable(PresetVersionObject),
  ...timestamps,
});

const list = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), total_count: Type.Integer() });
export const PresetList = list(PresetObject);
export const PresetVersionList = list(PresetVersionObject);
export const PresetEnvelope = Type.Object({ data: PresetWithVersionObject });
export const PresetVersionEnvelope = Type.Object({ data: PresetVersionObject });

/**
 * Path slug: every string reaches the service, which answers 400 for one that is not URL-safe
 * with a message naming the rule.
 */
export const PresetParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 500 }) });
export const PresetVersionParams = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 500 }),
  version: Type.String({ minLength: 1, maxLength: 500 }),
});

/** Management keys may name another workspace (UUID or slug); API keys work in their own. */
const workspaceQuery = { workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) };
export const PresetListQuery = Type.Object({ ...PageQuery.properties, ...workspaceQuery });
export const PresetWorkspaceQuery = Type.Object(workspaceQuery);

/** PATCH /presets/{slug}: all optional; unknown fields are a 400. */
export const UpdatePresetBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('archived')])),
    /** Capped so the number fits the integer column on PostgreSQL (a larger one is a 400, not a 500). */
    designated_version: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  },
  { additionalProperties: false },
);

/**
 * Body of `POST /presets/{slug}/messages`: an Anthropic Messages request whose `messages` and
 * `max_tokens` may be left out (a preset needs neither).
 */
export const PresetMessagesBody = Type.Object(
  {
    ...MessagesRequestSchema.properties,
    messages: Type.Optional(MessagesRequestSchema.properties.messages),
    max_tokens: Type.Optional(MessagesRequestSchema.properties.max_tokens),
  },
  { additionalProperties: true },
);
