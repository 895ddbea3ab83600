import { Type } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';

const SERVER_TOOLS = [
  'openrouter:advisor',
  'openrouter:apply_patch',
  'openrouter:bash',
  'openrouter:datetime',
  'openrouter:fusion',
  'openrouter:image_generation',
  'openrouter:experimental__search_models',
  'openrouter:shell',
  'openrouter:subagent',
  'openrouter:tool_search',
  'openrouter:web_fetch',
  'openrouter:web_search',
] as const;

/** A workspace as answered, in JSON key order. */
export const WorkspaceObject = Type.Object(
  {
    created_at: Type.String(),
    created_by: Nullable(Type.String()),
    default_guardrail_id: Type.String(),
    default_image_model: Nullable(Type.String()),
    default_provider_sort: Nullable(Type.String()),
    default_text_model: Nullable(Type.String()),
    description: Nullable(Type.String()),
    disabled_server_tools: Nullable(Type.Array(Type.String())),
    id: Type.String(),
    include_byok_in_budgets: Type.Boolean(),
    io_logging_api_key_ids: Nullable(Type.Array(Type.Integer())),
    io_logging_sampling_rate: Type.Number(),
    is_data_discount_logging_enabled: Type.Boolean(),
    is_observability_broadcast_enabled: Type.Boolean(),
    is_observability_io_logging_enabled: Type.Boolean(),
    name: Type.String(),
    slug: Type.String(),
    updated_at: Nullable(Type.String()),
  },
  { $id: 'Workspace' },
);

export const WorkspaceMemberObject = Type.Object(
  {
    created_at: Type.String(),
    id: Type.String(),
    role: Type.String(),
    user_id: Type.String(),
    workspace_id: Type.String(),
  },
  { $id: 'WorkspaceMember' },
);

export const WorkspaceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

const slug = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' });
const settings = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  default_text_model: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  default_image_model: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  default_provider_sort: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  disabled_server_tools: Type.Optional(
    Nullable(Type.Array(Type.Union(SERVER_TOOLS.map((t) => Type.Literal(t))), { maxItems: 50 })),
  ),
  io_logging_api_key_ids: Type.Optional(Nullable(Type.Array(Type.Integer(), { maxItems: 1000 }))),
  io_logging_sampling_rate: Type.Optional(Type.Number({ minimum: 0.0001, maximum: 1 })),
  is_data_discount_logging_enabled: Type.Optional(Type.Boolean()),
  is_observability_broadcast_enabled: Type.Optional(Type.Boolean()),
  is_observability_io_logging_enabled: Type.Optional(Type.Boolean()),
};

export const CreateWorkspaceBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }), slug, ...settings },
  { additionalProperties: false },
);

export const UpdateWorkspaceBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), slug: Type.Optional(slug), ...settings },
  { additionalProperties: false },
);

export const UserIdsBody = Type.Object(
  { user_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);

export const DeleteWorkspaceQuery = Type.Object({
  confirm_default_workspace_deletion: Type.Optional(Type.Boolean()),
});
