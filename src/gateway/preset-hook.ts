import type { KeyRecord } from '../domain/keys/types.js';
import type { CallKind, ModelCallBody } from './request-kinds.js';

/** The preset version a call used, for its generation record. */
export interface AppliedPreset {
  id: string;
  slug: string;
  version: number;
}

/**
 * Resolves a preset reference in a model-call body (`"model": "@preset/slug"`, `"preset": "slug"`,
 * `"model": "author/model@preset/slug"`) into the merged body the rest of the call sees: routing,
 * guardrails and content filters all run on what this returns. Throws a GatewayError (4xx) for
 * an unknown or archived preset. A body without a preset reference comes back unchanged.
 */
export interface PresetResolver {
  apply(input: {
    kind: CallKind;
    key: KeyRecord;
    body: ModelCallBody;
  }): Promise<{ body: ModelCallBody; preset: AppliedPreset | null }>;
}

export const noPresets: PresetResolver = {
  apply: ({ body }) => Promise.resolve({ body, preset: null }),
};
