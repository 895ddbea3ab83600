/**
 * Content-filter domain types. Pure data: no transport, no storage. A detector implements
 * `Filter`; the engine (`compile.ts`, `scan.ts`) turns guardrail filter configs into a
 * `CompiledFilterSet` once and runs it over the text segments of a request many times.
 */
import type { DigitCount } from './regex.js';
export type BuiltinSlug =
  'email' | 'phone' | 'ssn' | 'credit-card' | 'ip-address' | 'person-name' | 'address' | 'regex-prompt-injection';

export type FilterAction = 'redact' | 'block' | 'flag';

export type ScanScope = 'user_only' | 'all_messages';

export interface BuiltinFilterConfig {
  slug: BuiltinSlug;
  action: FilterAction;
  /** Only meaningful for `regex-prompt-injection`; default `all_messages`. */
  scan_scope?: ScanScope;
}

export interface CustomFilterConfig {
  pattern: string;
  action: 'redact' | 'block';
  label: string | null;
}

/** One piece of request text. `prompt` is the legacy completions prompt. */
export interface TextSegment {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'prompt';
  text: string;
}

/** A detected span, `[start, end)` in UTF-16 code units of the scanned text. */
export interface FilterMatch {
  start: number;
  end: number;
  replacement: string;
}

/** The one contract every detector (builtin or custom pattern) implements. */
export interface Filter {
  id: string;
  label: string;
  /** `digits` counts this same text's digits; the scanner shares one among a text's detectors. */
  find(text: string, digits?: DigitCount): FilterMatch[];
  /**
   * An RE2 source (flags inline, e.g. `(?i:…)`) that matches somewhere in every text where
   * `find` finds anything: lets `scan` rule this filter out together with the others in one pass.
   */
  gate?: string;
  /**
   * Builds what `find` needs (tables, word lists) once, when a filter set holding this filter is
   * compiled: never on a call, and never in a process whose guardrails do not use the filter.
   */
  prepare?(): void;
}

/** One filter of a compiled set, with its action and the roles it applies to. */
export interface CompiledFilter {
  /** Dedup key: same key means the same entity (see `combineFilterSets`). */
  readonly key: string;
  /** Name reported when it blocks or flags: the slug, the custom label or `custom pattern #n`. */
  readonly name: string;
  readonly action: FilterAction;
  readonly scope: ScanScope;
  readonly filter: Filter;
  /** Source of a custom pattern (absent on builtins). */
  readonly pattern?: string;
  /**
   * RE2 source that must match for the filter to find anything: a custom pattern's own source,
   * a builtin's `Filter.gate`; absent when there is none. `scan` tests all of a set's gates in one pass.
   */
  readonly gate?: string;
}

export interface CompiledFilterSet {
  readonly filters: readonly CompiledFilter[];
}

export interface ScanOptions {
  /** Skip a detector that throws instead of failing the whole scan; reported in `failedFilters`. */
  failOpen?: boolean;
}

export interface ScanResult {
  /** Set when a `block` filter matched; never carries matched text. */
  blocked: null | { filter: string };
  /** Names (slugs) of `flag` filters that matched, in set order, without duplicates. */
  flags: string[];
  /** Redacted copies in input order; an untouched segment keeps the very same string. */
  segments: TextSegment[];
  /** Number of placeholders written (after merging overlapping spans). */
  redactions: number;
  /** Names of filters that threw and were skipped (only with `failOpen`). */
  failedFilters: string[];
}
