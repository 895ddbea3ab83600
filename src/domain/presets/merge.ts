import type { PresetConfig } from './types.js';
import { unionTools } from '../../canonical/union-tools.js';

export { unionTools };

type Body = Record<string, unknown>;

/**
 * The body a model call runs with: the preset config shallowly
 * under the request (a field the request sends, null included, wins), tools unioned, and the
 * system prompt prepended as a system message. Config values are copied, so the cached preset is
 * never shared with (or changed by) a call.
 */
export function mergePreset<T extends Body>(body: T, version: { config: PresetConfig; systemPrompt: string }): T {
  const out: Body = { ...body };
  for (const [field, value] of Object.entries(version.config)) {
    if (out[field] === undefined) out[field] = structuredClone(value);
    else if (field === 'tools' && Array.isArray(value) && Array.isArray(out.tools))
      out.tools = unionTools(value, out.tools);
  }
  if (version.systemPrompt !== '' && Array.isArray(out.messages)) {
    out.messages = [{ role: 'system', content: version.systemPrompt }, ...(out.messages as unknown[])];
  }
  return out as T;
}
