import type { BuiltinSlug } from './types.js';

/** System-assigned redaction placeholders of the builtin filters (docs/content-filters.md). */
export const BUILTIN_LABELS: Readonly<Record<BuiltinSlug, string>> = Object.freeze({
  email: '[EMAIL]',
  phone: '[PHONE]',
  ssn: '[SSN]',
  'credit-card': '[CREDIT_CARD]',
  'ip-address': '[IP_ADDRESS]',
  'person-name': '[PERSON_NAME]',
  address: '[ADDRESS]',
  'regex-prompt-injection': '[PROMPT_INJECTION]',
});

export const BUILTIN_SLUGS: readonly BuiltinSlug[] = Object.freeze(Object.keys(BUILTIN_LABELS) as BuiltinSlug[]);

export function isBuiltinSlug(value: unknown): value is BuiltinSlug {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(BUILTIN_LABELS, value);
}

export function builtinLabel(slug: BuiltinSlug): string {
  return BUILTIN_LABELS[slug];
}

/**
 * Placeholder of a custom filter: the label bracketed once (`TICKET` and `[TICKET]` both give
 * `[TICKET]`, as the label is shown in the console and documented), or `[REDACTED]` without one.
 */
export function customLabel(label: string | null): string {
  if (label === null || label.trim() === '') return '[REDACTED]';
  const given = label.trim();
  return given.startsWith('[') && given.endsWith(']') && given.length > 2 ? given : `[${given}]`;
}
