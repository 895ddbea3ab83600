/**
 * What OpenAI's Responses API (`POST /responses`) accepts at the top level, declared once, as the
 * `openai` package's ResponseCreateParams defines it (a test checks the list against the
 * package's type declarations). OpenAI refuses an unrecognized argument with a 400, so a native
 * Responses call keeps only these (request.ts): every one of them is forwarded as the client
 * wrote it (input items, reasoning items, hosted tools and their options included).
 */
export const OPENAI_RESPONSES_FIELDS: readonly string[] = [
  'background',
  'context_management',
  'conversation',
  'include',
  'input',
  'instructions',
  'max_output_tokens',
  'metadata',
  'model',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt',
  'prompt_cache_key',
  'prompt_cache_retention',
  'reasoning',
  'safety_identifier',
  'service_tier',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_p',
  'truncation',
  'user',
];
