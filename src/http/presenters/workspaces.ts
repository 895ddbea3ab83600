import type { Static } from '@sinclair/typebox';
import { defaultGuardrailId } from '../../domain/workspaces/service.js';
import type { WorkspaceMemberRecord, WorkspacePatch, WorkspaceRecord } from '../../domain/workspaces/types.js';
import type { MemberRecord } from '../../domain/members/types.js';
import type { CreateWorkspaceBody, WorkspaceMemberObject, WorkspaceObject } from '../schemas/workspaces.js';
import type { MemberObject } from '../schemas/members.js';

export function presentWorkspace(w: WorkspaceRecord): Static<typeof WorkspaceObject> {
  return {
    created_at: w.createdAt,
    created_by: w.createdBy,
    default_guardrail_id: defaultGuardrailId(w.id),
    default_image_model: w.defaultImageModel,
    default_provider_sort: w.defaultProviderSort,
    default_text_model: w.defaultTextModel,
    description: w.description,
    disabled_server_tools: w.disabledServerTools,
    id: w.id,
    include_byok_in_budgets: w.includeByokInBudgets,
    io_logging_api_key_ids: w.ioLoggingApiKeyIds,
    io_logging_sampling_rate: w.ioLoggingSamplingRate,
    is_data_discount_logging_enabled: w.isDataDiscountLoggingEnabled,
    is_observability_broadcast_enabled: w.isObservabilityBroadcastEnabled,
    is_observability_io_logging_enabled: w.isObservabilityIoLoggingEnabled,
    name: w.name,
    slug: w.slug,
    updated_at: w.updatedAt,
  };
}

export function presentWorkspaceMember(m: WorkspaceMemberRecord): Static<typeof WorkspaceMemberObject> {
  return { created_at: m.createdAt, id: m.id, role: m.role, user_id: m.userId, workspace_id: m.workspaceId };
}

export function presentMember(m: MemberRecord): Static<typeof MemberObject> {
  return {
    email: m.email,
    first_name: m.firstName,
    id: m.id,
    last_name: m.lastName,
    role: m.role,
    disabled: m.disabledAt !== null,
  };
}

/** Wire body (snake_case, all optional) → domain patch. */
export function workspacePatchFrom(body: Partial<Static<typeof CreateWorkspaceBody>>): WorkspacePatch {
  const patch: WorkspacePatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.slug !== undefined) patch.slug = body.slug;
  if (body.description !== undefined) patch.description = body.description;
  if (body.default_text_model !== undefined) patch.defaultTextModel = body.default_text_model;
  if (body.default_image_model !== undefined) patch.defaultImageModel = body.default_image_model;
  if (body.default_provider_sort !== undefined) patch.defaultProviderSort = body.default_provider_sort;
  if (body.disabled_server_tools !== undefined)
    patch.disabledServerTools =
      body.disabled_server_tools === null || body.disabled_server_tools.length === 0
        ? null
        : body.disabled_server_tools;
  if (body.io_logging_api_key_ids !== undefined) patch.ioLoggingApiKeyIds = body.io_logging_api_key_ids;
  if (body.io_logging_sampling_rate !== undefined) patch.ioLoggingSamplingRate = body.io_logging_sampling_rate;
  if (body.is_data_discount_logging_enabled !== undefined)
    patch.isDataDiscountLoggingEnabled = body.is_data_discount_logging_enabled;
  if (body.is_observability_broadcast_enabled !== undefined)
    patch.isObservabilityBroadcastEnabled = body.is_observability_broadcast_enabled;
  if (body.is_observability_io_logging_enabled !== undefined)
    patch.isObservabilityIoLoggingEnabled = body.is_observability_io_logging_enabled;
  return patch;
}
