import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';
import { compileRe2, findSpans } from '../regex.js';

/**
 * Prompt-injection phrasings: a curated list of RE2 patterns, case-insensitive, tolerant of
 * extra words and whitespace between the key terms. Each entry documents the family it covers;
 * docs/content-filters.md lists them for users. Phrases are anchored on an imperative plus a
 * target ("previous instructions", "system prompt"), so ordinary requests ("ignore the previous
 * email", "show me the system requirements") do not match.
 * Misses: paraphrases outside the list, other languages, encoded payloads (base64, leetspeak),
 * instructions hidden in documents the model fetches itself.
 */
const W = '[\\s,]+'; // separator between words
/** Words allowed between the verb and "previous": determiners only, so "ignore MY previous…" (a user correcting themselves) does not match. */
const DETS = '(?:[\\s,]+(?:all|any|the|your|of|these|those|every|each|and|previously|given))*?[\\s,]+';
/** Between "previous" and "instructions": a few qualifiers ("previous system instructions"). */
const QUALS = '(?:[\\s,]+(?:system|user|developer|safety|set\\s+of|and|or|all|given|\\w+)){0,2}?[\\s,]+';
const PRIOR = '(?:previous|prior|preceding|above|earlier|foregoing|former|initial|original|old)';
const RULES =
  '(?:instructions?|prompts?|rules|directives?|directions|guidelines|commands?|context|programming|constraints|system\\s+messages?)';
const SYSTEM_PROMPT =
  '(?:system|developer|hidden|secret|initial|original|internal)\\s+(?:prompt|instructions?|message|rules|guidelines)';

export const INJECTION_PATTERNS: ReadonlyArray<{ id: string; description: string; source: string }> = [
  {
    id: 'ignore-previous',
    description: 'ignore / disregard / forget / override (all) previous instructions',
    source: `(?:ignore|disregard|forget|skip|bypass|override|overrule|discard|abandon|neglect)${DETS}${PRIOR}${QUALS}${RULES}`,
  },
  {
    id: 'ignore-everything',
    description: 'ignore / forget everything you were told (above, so far)',
    source:
      "(?:ignore|disregard|forget)\\s+(?:(?:everything|anything|all)\\s+(?:you\\s+(?:were|have\\s+been|'ve\\s+been)\\s+(?:told|given|instructed|taught)|(?:of\\s+)?(?:the\\s+)?(?:written\\s+|said\\s+|stated\\s+)?(?:above|so\\s+far|before\\s+this(?:\\s+(?:line|message|point))?))|the\\s+above(?:\\s+(?:text|message|instructions))?)",
  },
  {
    id: 'ignore-system-prompt',
    description: 'ignore / disregard / override / bypass the system (or developer) prompt',
    source: `(?:ignore|disregard|forget|override|bypass|circumvent|overrule|discard)${W}(?:all${W})?(?:of${W})?(?:the|your|any|these|those)${W}${SYSTEM_PROMPT}`,
  },
  {
    id: 'ignore-your-rules',
    description: 'ignore your rules / guidelines / safety / programming / restrictions',
    source: `(?:ignore|disregard|forget|bypass|override|abandon)${W}(?:all${W})?(?:of${W})?your${W}(?:\\w+${W})?(?:rules|guidelines|safety|programming|restrictions|filters|policies|content\\s+policy|training|principles|ethics)`,
  },
  {
    id: 'reveal-system-prompt',
    description: 'reveal / print / repeat / leak your system prompt or initial instructions',
    source: `(?:reveal|show|print|output|repeat|leak|display|dump|expose|disclose|share|recite|spell\\s+out|tell\\s+me|give\\s+me|write\\s+out)${W}(?:me${W})?(?:\\w+${W})?(?:your|the)${W}(?:full${W}|exact${W}|entire${W}|complete${W}|verbatim${W})?${SYSTEM_PROMPT}`,
  },
  {
    id: 'what-is-your-prompt',
    description: 'what is / what are your system prompt / hidden instructions',
    source: `what${W}(?:is|are|was|were)${W}your${W}(?:full${W}|exact${W}|real${W})?${SYSTEM_PROMPT}`,
  },
  {
    id: 'repeat-above',
    description: 'repeat the words / text above (starting with "You are")',
    source: `(?:repeat|print|output|copy)${W}(?:all${W})?(?:of${W})?(?:the${W})?(?:words|text|everything|content|message)${W}above`,
  },
  {
    id: 'dan',
    description: 'DAN / "do anything now" persona',
    source:
      '(?:you\\s+are\\s+(?:now\\s+|going\\s+to\\s+(?:be|act\\s+as|pretend\\s+to\\s+be)\\s+)|act\\s+as\\s+|pretend\\s+to\\s+be\\s+|become\\s+|called\\s+)(?:a\\s+|an\\s+)?\\bDAN\\b|do\\s+anything\\s+now',
  },
  {
    id: 'jailbreak-mode',
    description: 'developer / jailbreak / god / DAN mode enabled or entered',
    source:
      '(?:(?:enable|activate|enter|switch\\s+(?:to|into)|turn\\s+on|you\\s+are\\s+(?:now\\s+)?in)\\s+(?:the\\s+)?(?:jailbreak|jailbroken|god|dan|unrestricted|unfiltered|evil)\\s+mode|(?:developer|jailbreak|god|dan)\\s+mode\\s+(?:enabled|activated|output))',
  },
  {
    id: 'no-restrictions',
    description: 'pretend / from now on you have no restrictions, filters or rules',
    source: `(?:you\\s+(?:have|has|are\\s+under)\\s+no|you\\s+(?:are|were)\\s+(?:not\\s+bound\\s+by|free\\s+(?:from|of))|without\\s+any|free\\s+of\\s+all|not\\s+bound\\s+by\\s+any)${W}(?:\\w+${W})?(?:restrictions|filters|rules|guidelines|limitations|censorship|content\\s+polic(?:y|ies)|ethical\\s+(?:guidelines|constraints)|safety\\s+(?:guidelines|measures))`,
  },
  {
    id: 'you-are-now',
    description: 'you are now an unrestricted / unfiltered / jailbroken AI',
    source:
      "(?:you\\s+are|you're|act\\s+as|behave\\s+as)\\s+(?:now\\s+)?(?:a|an)\\s+(?:unrestricted|unfiltered|uncensored|jailbroken|rogue|evil|amoral)\\s+(?:ai|assistant|model|chatbot|language\\s+model|version)",
  },
  {
    id: 'new-instructions',
    description: 'new system instructions / role-spoofing markers injected in content',
    source:
      '(?:(?:^|\\n)\\s*(?:#+\\s*)?(?:new|updated|revised|real)\\s+(?:system\\s+)?instructions\\s*:|<\\|im_start\\|>\\s*system|\\[/?INST\\]|<<SYS>>|(?:^|\\n)\\s*#{2,}\\s*system\\s*(?:prompt|message)?\\s*:|\\[system\\s*(?:message|prompt|override)\\])',
  },
  {
    id: 'override-now',
    description: 'from now on you will / must obey only me (instruction hijack)',
    source:
      '(?:from\\s+now\\s+on|henceforth|starting\\s+now),?\\s+(?:you\\s+(?:will|must|shall|are\\s+to)\\s+)(?:only\\s+)?(?:obey|follow|answer|respond|comply|ignore|disregard)',
  },
];

/** One alternation, one linear pass over the text (case-insensitive). */
const SOURCE = INJECTION_PATTERNS.map((p) =>
  p.source.startsWith('(?:(?:^') ? `(?:${p.source})` : `\\b(?:${p.source})`,
).join('|');
const COMBINED = compileRe2(SOURCE, true);

const LABEL = BUILTIN_LABELS['regex-prompt-injection'];

export const promptInjectionFilter: Filter = {
  id: 'regex-prompt-injection',
  label: LABEL,
  find(text: string): FilterMatch[] {
    return findSpans(COMBINED, text).map(([start, end]) => ({ start, end, replacement: LABEL }));
  },
  gate: `(?i:${SOURCE})`,
};
