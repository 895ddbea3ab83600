import type { KeyRecord } from '../../domain/keys/types.js';
import { limitRemaining, type KeyUsage } from '../../domain/keys/usage.js';
import type { CurrentKeyObject, KeyObject } from '../schemas/keys.js';

export function presentKey(key: KeyRecord, usage: KeyUsage): KeyObject {
  return {
    byok_usage: usage.byokUsage,
    byok_usage_daily: usage.byokUsageDaily,
    byok_usage_monthly: usage.byokUsageMonthly,
    byok_usage_weekly: usage.byokUsageWeekly,
    created_at: key.createdAt,
    creator_user_id: key.creatorUserId,
    disabled: key.disabled,
    expires_at: key.expiresAt,
    external_user: key.externalUser,
    hash: key.hash,
    include_byok_in_limit: key.includeByokInLimit,
    label: key.label,
    limit: key.limit,
    limit_remaining: limitRemaining(key.limit, usage, key.limitReset, key.includeByokInLimit),
    limit_reset: key.limitReset,
    name: key.name,
    updated_at: key.updatedAt,
    usage: usage.usage,
    usage_daily: usage.usageDaily,
    usage_monthly: usage.usageMonthly,
    usage_weekly: usage.usageWeekly,
    workspace_id: key.workspaceId,
  };
}

export function presentCurrentKey(key: KeyRecord, usage: KeyUsage): CurrentKeyObject {
  return {
    allowed_data_regions: ['global'],
    byok_usage: usage.byokUsage,
    byok_usage_daily: usage.byokUsageDaily,
    byok_usage_monthly: usage.byokUsageMonthly,
    byok_usage_weekly: usage.byokUsageWeekly,
    creator_user_id: key.creatorUserId,
    expires_at: key.expiresAt,
    free_model_daily_requests: { limit: 0, remaining: 0, used: 0 },
    include_byok_in_limit: key.includeByokInLimit,
    is_free_tier: false,
    is_management_key: key.kind === 'management',
    is_provisioning_key: key.kind === 'management',
    label: key.label,
    limit: key.limit,
    limit_remaining: limitRemaining(key.limit, usage, key.limitReset, key.includeByokInLimit),
    limit_reset: key.limitReset,
    organization_id: null,
    rate_limit: { interval: '1h', note: 'This field is deprecated and safe to ignore.', requests: -1 },
    usage: usage.usage,
    usage_daily: usage.usageDaily,
    usage_monthly: usage.usageMonthly,
    usage_weekly: usage.usageWeekly,
    workspace_id: key.workspaceId,
  };
}
