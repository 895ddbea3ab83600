import type { CallKind } from '../../canonical/index.js';
import { errors } from '../../errors/index.js';
import type { KeyRecord } from '../keys/types.js';
import type { PresetCache } from './cache.js';
import { presetReference } from './reference.js';
import type { PresetVersionRecord } from './types.js';

/** The preset version a call used, for its generation record. */
export interface AppliedPreset {
  id: string;
  slug: string;
  version: number;
}

/**
 * Resolves a preset reference in a model call (`"model": "@preset/slug"`, `"preset": "slug"`,
 * `"model": "author/model@preset/slug"`) into the merged call the rest of the gateway sees:
 * routing, guardrails and content filters all run on what this returns. Throws a GatewayError
 * (4xx) for an unknown or archived preset. A call without a preset reference comes back unchanged.
 */
export interface PresetResolver {
  apply<B extends PresetTarget>(input: PresetApplication<B>): Promise<{ body: B; preset: AppliedPreset | null }>;
  /**
   * Whether `apply` could change this body; false when it would return it unchanged with no
   * preset, so a call without a reference takes no promise. Throws what `apply` would for a
   * malformed reference.
   */
  references?(body: PresetTarget): boolean;
}

/** A model call a preset may apply to. */
export interface PresetApplication<B extends PresetTarget> {
  kind: CallKind;
  key: KeyRecord;
  body: B;
  /**
   * How this kind folds a preset version into its body (the body without its preset reference);
   * absent when the kind takes no preset, and a reference is then a 400.
   */
  merge: ((body: B, version: PresetVersionRecord) => B) | undefined;
}

/** The fields of a model-call body a preset reference can sit in; the rest is merged as is. */
export type PresetTarget = Readonly<{ model?: string; models?: string[]; preset?: string }> &
  Readonly<Record<string, unknown>>;

export const noPresets: PresetResolver = {
  apply: ({ body }) => Promise.resolve({ body, preset: null }),
  references: () => false,
};

/**
 * Applies a referenced preset to a model call: the designated version of the key's workspace's
 * preset fills what the body leaves out, and its system prompt comes first, as the call's kind
 * merges it. Presets are resolved through the cache, never the database on every call. A preset
 * is a chat configuration (system prompt, sampling, tools): chat (and the Responses API, which is
 * decoded to a chat) and Anthropic Messages take one; referencing one from another kind is a 400.
 */
export class CachedPresetResolver implements PresetResolver {
  constructor(private readonly cache: PresetCache) {}

  references(body: PresetTarget): boolean {
    return presetReference(body) !== null;
  }

  async apply<B extends PresetTarget>(input: PresetApplication<B>): Promise<{ body: B; preset: AppliedPreset | null }> {
    const { kind, key, body, merge } = input;
    const ref = presetReference(body);
    if (ref === null) return { body, preset: null };
    const field = body.preset !== undefined ? 'preset' : 'model';
    if (merge === undefined) {
      throw errors.invalidRequest(`Presets apply to chat completions, responses and messages, not to ${kind} calls`, {
        field,
      });
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
    const merged = merge(stripped as B, version);
    return { body: merged, preset: { id: preset.id, slug: preset.slug, version: version.version } };
  }
}
