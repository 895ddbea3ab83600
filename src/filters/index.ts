/** Content-filter engine: compile guardrail filters once, scan request text many times. */
export type {
  BuiltinSlug,
  FilterAction,
  ScanScope,
  BuiltinFilterConfig,
  CustomFilterConfig,
  TextSegment,
  FilterMatch,
  Filter,
  CompiledFilter,
  CompiledFilterSet,
  ScanOptions,
  ScanResult,
} from './types.js';
export { compileFilterSet, combineFilterSets, validatePattern } from './compile.js';
export { scan } from './scan.js';
export { InvalidPatternError, FilterFailureError } from './errors.js';
export { BUILTIN_LABELS, BUILTIN_SLUGS, builtinLabel, customLabel, isBuiltinSlug } from './labels.js';
export { BUILTIN_FILTERS, builtinFilter } from './registry.js';
export { INJECTION_PATTERNS } from './builtins/prompt-injection.js';
