/**
 * The OpenAI Responses API objects Switchyard writes (field names and shapes as the `openai` SDK
 * declares them; the tests assign these to the SDK's own types, so a drift fails the build).
 */
export interface OutputText {
  type: 'output_text';
  text: string;
  /** Always empty: no citations or logprobs pass through the gateway. */
  annotations: never[];
  logprobs?: never[];
}

export interface ReasoningText {
  type: 'reasoning_text';
  text: string;
}

export interface OutputMessageItem {
  type: 'message';
  id: string;
  role: 'assistant';
  status: ItemStatus;
  content: OutputText[];
}

export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
  /** The namespace of a namespaced tool (its name is the tool's own within it). */
  namespace?: string;
}

/** A call of a freeform (`custom`) tool: its raw `input`. */
export interface CustomToolCallItem {
  type: 'custom_tool_call';
  id: string;
  call_id: string;
  name: string;
  input: string;
  namespace?: string;
}

export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: ReasoningText[];
  status?: ItemStatus;
  /** The upstream's signed reasoning, for the client to send back (reasoning-state.ts). */
  encrypted_content?: string | null;
}

export type OutputItem = OutputMessageItem | FunctionCallItem | CustomToolCallItem | ReasoningItem;

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** The error codes of a failed response that apply to a gateway (a subset of OpenAI's). */
export type ResponseErrorCode = 'server_error' | 'rate_limit_exceeded' | 'invalid_prompt';

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'incomplete';

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  /** USD, as on every Switchyard answer. */
  cost?: number;
}

/** Function tools as the Responses API writes them (flat, not nested under `function`). */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}

export type ResponsesToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      schema: Record<string, unknown>;
      description?: string;
      strict?: boolean | null;
    };

/** Request fields a response object repeats back (what the client asked for). */
export interface ResponseEcho {
  instructions: string | null;
  max_output_tokens: number | null;
  metadata: Record<string, string> | null;
  parallel_tool_calls: boolean;
  temperature: number | null;
  top_p: number | null;
  tool_choice: ResponsesToolChoice;
  tools: ResponsesFunctionTool[];
  text: { format: ResponsesTextFormat; verbosity?: 'low' | 'medium' | 'high' | null };
  reasoning: {
    effort: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | null;
    summary: 'auto' | 'concise' | 'detailed' | null;
  };
  user?: string;
}

export interface ResponseObject extends ResponseEcho {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  completed_at?: number | null;
  error: { code: ResponseErrorCode; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  model: string;
  output: OutputItem[];
  /** Whether the response is kept (GET /responses/{id}, previous_response_id). */
  store: boolean;
  background: false;
  truncation: 'disabled';
  usage?: ResponsesUsage;
  /** Name of the provider that served (a Switchyard addition, as on chat answers). */
  provider?: string;
}
