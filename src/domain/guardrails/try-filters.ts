import {
  compileFilterSet,
  scan,
  type BuiltinFilterConfig,
  type CustomFilterConfig,
  type FilterAction,
  type TextSegment,
} from '../../filters/index.js';

export interface FilterPreviewMatch {
  filter: string;
  action: FilterAction;
  /** `[start, end)` in UTF-16 code units of the given text. */
  start: number;
  end: number;
}

export interface FilterPreview {
  outcome: 'blocked' | 'redacted' | 'flagged' | 'clean';
  blockedBy: string | null;
  flags: string[];
  redactions: number;
  /** The text as it would be forwarded; null when blocked (nothing would be). */
  redactedText: string | null;
  failedFilters: string[];
  matches: FilterPreviewMatch[];
}

const USER_ROLES: ReadonlySet<TextSegment['role']> = new Set(['user', 'prompt']);

/**
 * What a guardrail's content filters would do to one message, without calling a model: the scan
 * a model call runs (block first, then flag and redact), plus every filter's own hits on the
 * original text so a user can see why. Fails closed like a call does (a throwing filter throws).
 */
export function previewFilters(input: {
  builtins: readonly BuiltinFilterConfig[];
  custom: readonly CustomFilterConfig[];
  text: string;
  role: 'user' | 'system' | 'assistant';
}): FilterPreview {
  const set = compileFilterSet({ builtins: [...input.builtins], custom: [...input.custom] });
  const segment: TextSegment = { role: input.role, text: input.text };
  const result = scan(set, [segment]);
  const matches: FilterPreviewMatch[] = [];
  for (const f of set.filters) {
    if (f.scope !== 'all_messages' && !USER_ROLES.has(segment.role)) continue;
    for (const m of f.filter.find(input.text))
      matches.push({ filter: f.name, action: f.action, start: m.start, end: m.end });
  }
  matches.sort((a, b) => a.start - b.start || a.end - b.end);
  const blockedBy = result.blocked?.filter ?? null;
  return {
    outcome:
      blockedBy !== null
        ? 'blocked'
        : result.redactions > 0
          ? 'redacted'
          : result.flags.length > 0
            ? 'flagged'
            : 'clean',
    blockedBy,
    flags: result.flags,
    redactions: result.redactions,
    redactedText: blockedBy !== null ? null : (result.segments[0]?.text ?? input.text),
    failedFilters: result.failedFilters,
    matches,
  };
}
