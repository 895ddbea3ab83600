import { errors } from '../../errors/index.js';
import type { AppliedPreset, PresetResolver } from '../../gateway/preset-hook.js';
import type { CallKind, ModelCallBody } from '../../gateway/request-kinds.js';
import type { KeyRecord } from '../keys/types.js';
import type { PresetCache } from './cache.js';
import { mergePreset } from './merge.js';
import { presetReference } from './reference.js';

/**
 * Applies a referenced preset to a model call (reference §4.3, decisions.md "Presets"): the
 * designated version of the key's workspace's preset fills what the body leaves out, and its
 * system prompt is prepended. Presets are resolved through the cache, never the database on
 * every call. Legacy completions take no preset (a preset is a chat configuration: system
 * prompt, tools, response format); referencing one there is a 400.
 */
export class CachedPresetResolver implements PresetResolver {
  constructor(private readonly cache: PresetCache) {}

  async apply(input: {
    kind: CallKind;
    key: KeyRecord;
    body: ModelCallBody;
  }): Promise<{ body: ModelCallBody; preset: AppliedPreset | null }> {
    const { kind, key, body } = input;
    const ref = presetReference(body);
    if (ref === null) return { body, preset: null };
    const field = body.preset !== undefined ? 'preset' : 'model';
    if (kind !== 'chat') {
      throw errors.invalidRequest(
        'Presets apply to chat completions only; send this request to POST /chat/completions',
        { field },
      );
    }
    const resolved = await this.cache.get(key.workspaceId, ref.slug);
    if (resolved === null || resolved.version === null) {
      throw errors.notFound(`Preset ${ref.slug} not found`, { field, preset: ref.slug });
    }
    const { preset, version } = resolved;
    if (preset.status !== 'active') {
      throw errors.invalidRequest(`Preset ${ref.slug} is ${preset.status}; set its status to active to use it`, {
        field,
        preset: ref.slug,
        status: preset.status,
      });
    }
    const stripped: Record<string, unknown> = { ...body };
    delete stripped.preset;
    if (ref.model === undefined) delete stripped.model;
    else stripped.model = ref.model;
    const merged = mergePreset(stripped, version) as ModelCallBody;
    return { body: merged, preset: { id: preset.id, slug: preset.slug, version: version.version } };
  }
}
