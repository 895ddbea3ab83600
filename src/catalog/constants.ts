import type { Quantization, ZdrVendor, ZdrVendorConfig } from './types.js';

/** Every name a model's `supported_parameters` may list (declared with the request schema). */
export { KNOWN_PARAMETERS } from '../canonical/index.js';

/** Default `supported_parameters` of a model: what an OpenAI-style chat endpoint commonly takes. */
export const DEFAULT_SUPPORTED_PARAMETERS: readonly string[] = Object.freeze([
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'max_tokens',
  'max_completion_tokens',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'seed',
  'response_format',
  'structured_outputs',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
]);

export const QUANTIZATIONS: readonly Quantization[] = Object.freeze([
  'int4',
  'int8',
  'fp4',
  'mxfp4',
  'nvfp4',
  'fp6',
  'fp8',
  'mxfp8',
  'fp16',
  'bf16',
  'fp32',
  'unknown',
] as const);

export const INPUT_MODALITIES: readonly string[] = Object.freeze(['text', 'image', 'file', 'audio', 'video']);
export const OUTPUT_MODALITIES: readonly string[] = Object.freeze([
  'text',
  'image',
  'embeddings',
  'audio',
  'video',
  'rerank',
  'decisions',
  'speech',
  'transcription',
]);

export const ZDR_VENDORS: readonly ZdrVendor[] = Object.freeze([
  'vendor_a',
  'vendor_b',
  'vendor_c',
  'vendor_d',
] as const);

/** The default mapping of ZDR vendor markers to provider names (docs/guardrails.md). */
export const DEFAULT_ZDR_VENDORS: Readonly<Record<ZdrVendor, ZdrVendorConfig>> = Object.freeze({
  vendor_a: Object.freeze({ name: 'anthropic', authors: Object.freeze(['anthropic']) }),
  vendor_b: Object.freeze({ name: 'google', authors: Object.freeze(['google']) }),
  vendor_c: Object.freeze({ name: 'openai', authors: Object.freeze(['openai']) }),
  vendor_d: Object.freeze({ name: 'xai', authors: Object.freeze(['x-ai']) }),
});

/** Lowercase slug: provider ids, model authors, vendor names. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
/** `author/name`, lowercase; the name may carry `:variant` or `+` (e.g. `llama3.2:3b`). */
export const MODEL_SLUG_PATTERN = /^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._:+-]*$/;

/** A per-token price above this is almost surely a per-million price typed by mistake. */
export const MAX_PLAUSIBLE_TOKEN_PRICE = 0.001;
