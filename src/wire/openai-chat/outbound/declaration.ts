import type { ChatField } from '../../../canonical/index.js';

/**
 * What an OpenAI-compatible chat-completions upstream accepts, declared once: the request's
 * top-level fields, each message role's fields and content-part types, and each part's and
 * tool's fields, as OpenAI's API (and the `openai` package's ChatCompletionCreateParams) defines
 * them. OpenAI refuses anything else with a 400, so the outbound body keeps only these
 * (declared-body.ts); a test checks the lists against the
 * package's type declarations.
 */

/** Top-level fields the gateway's request schema declares too (so they are typed and checked on the way in). */
const SCHEMA_FIELDS = [
  'model',
  'messages',
  'stream',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'stop',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'user',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'metadata',
  'reasoning_effort',
  'verbosity',
  'modalities',
  'service_tier',
] as const satisfies readonly ChatField[];

/** Top-level fields a client may send that the gateway does not type: forwarded from the body's extras. */
const PASS_THROUGH_FIELDS = [
  'audio',
  'function_call',
  'functions',
  'n',
  'prediction',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
  'store',
  'stream_options',
  'web_search_options',
] as const;

export const OPENAI_CHAT_FIELDS: readonly string[] = [...SCHEMA_FIELDS, ...PASS_THROUGH_FIELDS];
export type OpenAiChatField = (typeof SCHEMA_FIELDS)[number] | (typeof PASS_THROUGH_FIELDS)[number];

/** Top-level fields of OpenAI's legacy completions request (CompletionCreateParams). */
export const OPENAI_COMPLETION_FIELDS: readonly string[] = [
  'model',
  'prompt',
  'best_of',
  'echo',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'max_tokens',
  'n',
  'presence_penalty',
  'seed',
  'stop',
  'stream',
  'stream_options',
  'suffix',
  'temperature',
  'top_p',
  'user',
];

/** Per role: the message's fields and the content-part types its `content` array may hold. */
export const OPENAI_MESSAGE_SHAPES: Readonly<Record<string, { fields: readonly string[]; parts: readonly string[] }>> =
  {
    system: { fields: ['role', 'content', 'name'], parts: ['text'] },
    developer: { fields: ['role', 'content', 'name'], parts: ['text'] },
    user: { fields: ['role', 'content', 'name'], parts: ['text', 'image_url', 'input_audio', 'file'] },
    assistant: {
      fields: ['role', 'content', 'name', 'refusal', 'tool_calls', 'function_call', 'audio'],
      parts: ['text', 'refusal'],
    },
    tool: { fields: ['role', 'content', 'tool_call_id'], parts: ['text'] },
  };

/** Per content-part type: its fields. */
export const OPENAI_PART_FIELDS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text'],
  refusal: ['type', 'refusal'],
  image_url: ['type', 'image_url'],
  input_audio: ['type', 'input_audio'],
  file: ['type', 'file'],
};

/** Per tool type: its fields, and those of its definition object. */
export const OPENAI_TOOL_SHAPES: Readonly<Record<string, { fields: readonly string[]; inner: readonly string[] }>> = {
  function: { fields: ['type', 'function'], inner: ['name', 'description', 'parameters', 'strict'] },
  custom: { fields: ['type', 'custom'], inner: ['name', 'description', 'format'] },
};

/** Reasoning efforts OpenAI takes; the gateway's others map to the nearest. */
export const OPENAI_EFFORTS: Readonly<Record<string, string>> = {
  none: 'none',
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'xhigh',
};

/**
 * Fields of OpenAI's chat API that Azure OpenAI's chat completions do not define (Azure answers
 * an unrecognised argument with a 400): cut from the body sent to a `kind: azure` provider.
 * Built-in web search is not offered on Azure's chat completions, and prompt-cache retention
 * is not configurable there.
 */
export const AZURE_UNSUPPORTED_CHAT_FIELDS: readonly OpenAiChatField[] = [
  'web_search_options',
  'prompt_cache_retention',
];
