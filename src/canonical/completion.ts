import type { SamplingParameters } from './chat-request.js';
import type { FinishReason } from './chat-response.js';
import type { CanonicalUsage } from './usage.js';

/** Legacy `POST /completions` (reference §7.1). `model` is the upstream name. */
export interface CanonicalCompletionRequest extends SamplingParameters {
  model: string;
  prompt: string | string[];
  stream?: boolean;
  extra: Record<string, unknown>;
}

export interface CanonicalCompletionChoice {
  text: string;
  index: number;
  finish_reason: FinishReason | string | null;
  logprobs?: unknown;
}

export interface CanonicalCompletionResponse {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: CanonicalCompletionChoice[];
  usage: CanonicalUsage;
}

/** A legacy completion stream event: same shape as the response, text deltas; usage last. */
export interface CanonicalCompletionChunk {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: CanonicalCompletionChoice[];
  usage?: CanonicalUsage;
}

/** Sampling parameters shared by both request kinds (copied when converting completion → chat). */
export const SHARED_SAMPLING_FIELDS = [
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'top_a',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'seed',
  'stop',
  'logit_bias',
  'top_logprobs',
  'user',
] as const satisfies readonly (keyof SamplingParameters)[];
