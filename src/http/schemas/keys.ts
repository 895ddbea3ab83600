import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';
import { MAX_OFFSET } from './common.js';

export const LimitResetSchema = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')]);

/** An API or management key as answered, in JSON key order. */
export const KeyObject = Type.Object(
  {
    byok_usage: Type.Number(),
    byok_usage_daily: Type.Number(),
    byok_usage_monthly: Type.Number(),
    byok_usage_weekly: Type.Number(),
    created_at: Type.String(),
    creator_user_id: Nullable(Type.String()),
    disabled: Type.Boolean(),
    expires_at: Nullable(Type.String()),
    external_user: Nullable(Type.String()),
    hash: Type.String(),
    include_byok_in_limit: Type.Boolean(),
    label: Type.String(),
    limit: Nullable(Type.Number()),
    limit_remaining: Nullable(Type.Number()),
    limit_reset: Nullable(Type.String()),
    name: Type.String(),
    updated_at: Nullable(Type.String()),
    usage: Type.Number(),
    usage_daily: Type.Number(),
    usage_monthly: Type.Number(),
    usage_weekly: Type.Number(),
    workspace_id: Type.String(),
  },
  { $id: 'ApiKey' },
);
export type KeyObject = Static<typeof KeyObject>;

/** GET /key: the calling key itself. */
export const CurrentKeyObject = Type.Object({
  allowed_data_regions: Type.Array(Type.String()),
  byok_usage: Type.Number(),
  byok_usage_daily: Type.Number(),
  byok_usage_monthly: Type.Number(),
  byok_usage_weekly: Type.Number(),
  creator_user_id: Nullable(Type.String()),
  expires_at: Nullable(Type.String()),
  free_model_daily_requests: Type.Object({ limit: Type.Integer(), remaining: Type.Integer(), used: Type.Integer() }),
  include_byok_in_limit: Type.Boolean(),
  is_free_tier: Type.Boolean(),
  is_management_key: Type.Boolean(),
  is_provisioning_key: Type.Boolean(),
  label: Type.String(),
  limit: Nullable(Type.Number()),
  limit_remaining: Nullable(Type.Number()),
  limit_reset: Nullable(Type.String()),
  organization_id: Nullable(Type.String()),
  rate_limit: Type.Object({ interval: Type.String(), note: Type.String(), requests: Type.Integer() }),
  usage: Type.Number(),
  usage_daily: Type.Number(),
  usage_monthly: Type.Number(),
  usage_weekly: Type.Number(),
  workspace_id: Nullable(Type.String()),
});
export type CurrentKeyObject = Static<typeof CurrentKeyObject>;

export const KeyHashParams = Type.Object({ hash: Type.String({ minLength: 1, maxLength: 128 }) });

export const ListKeysQuery = Type.Object({
  include_disabled: Type.Optional(Type.Boolean({ default: false })),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 }))),
  workspace_id: Type.Optional(Type.String({ minLength: 1 })),
});

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    limit: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
    limit_reset: Type.Optional(Nullable(LimitResetSchema)),
    include_byok_in_limit: Type.Optional(Type.Boolean()),
    expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
    workspace_id: Type.Optional(Type.String({ minLength: 1 })),
    creator_user_id: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    external: Type.Optional(
      Type.Object(
        {
          user: Type.String({ minLength: 1, maxLength: 256 }),
          api_key: Type.Optional(Type.String({ minLength: 32, maxLength: 512 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const UpdateKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    disabled: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
    limit_reset: Type.Optional(Nullable(LimitResetSchema)),
    include_byok_in_limit: Type.Optional(Type.Boolean()),
    expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  },
  { additionalProperties: false },
);

export const KeyEnvelope = Type.Object({ data: Type.Ref(KeyObject) });
export const IssuedKeyEnvelope = Type.Object({ data: Type.Ref(KeyObject), key: Type.String() });
export const KeyListEnvelope = Type.Object({ data: Type.Array(Type.Ref(KeyObject)) });
