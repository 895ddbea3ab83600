import type { Static } from '@sinclair/typebox';
import type { PresetRecord, PresetVersionRecord, ResolvedPreset } from '../../domain/presets/types.js';
import type { PresetObject, PresetVersionObject, PresetWithVersionObject } from '../schemas/presets.js';

export function presentPresetVersion(v: PresetVersionRecord): Static<typeof PresetVersionObject> {
  return {
    id: v.id,
    preset_id: v.presetId,
    version: v.version,
    config: v.config,
    system_prompt: v.systemPrompt,
    creator_id: v.creatorId,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
  };
}

const head = (p: PresetRecord) => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  description: p.description,
  status: p.status,
  status_updated_at: p.statusUpdatedAt,
  creator_user_id: p.creatorUserId,
  workspace_id: p.workspaceId,
  designated_version_id: p.designatedVersionId,
});

export function presentPreset(p: PresetRecord): Static<typeof PresetObject> {
  return { ...head(p), created_at: p.createdAt, updated_at: p.updatedAt };
}

export function presentResolvedPreset(r: ResolvedPreset): Static<typeof PresetWithVersionObject> {
  return {
    ...head(r.preset),
    designated_version: r.version === null ? null : presentPresetVersion(r.version),
    created_at: r.preset.createdAt,
    updated_at: r.preset.updatedAt,
  };
}
