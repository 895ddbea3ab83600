/**
 * Chat messages, content parts and tools in the OpenAI chat-completions shape. Parts and tools are open: unknown part types pass through to OpenAI-style upstreams.
 */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface TextPart {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

export interface ImageUrlPart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' | 'original' };
}

export interface FilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}

export interface InputAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: string };
}

/** Any other part (video_url, input_video, vendor extensions): forwarded untouched where possible. */
export interface OtherPart {
  type: string;
  [key: string]: unknown;
}

export type ContentPart = TextPart | ImageUrlPart | FilePart | InputAudioPart | OtherPart;

export type MessageContent = string | ContentPart[];

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: 'system' | 'developer';
  content: string | TextPart[];
  name?: string;
}

export interface UserMessage {
  role: 'user';
  content: MessageContent;
  name?: string;
}

export interface AssistantMessageInput {
  role: 'assistant';
  content?: MessageContent | null;
  name?: string;
  tool_calls?: ToolCall[];
  refusal?: string | null;
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
}

export interface ToolMessage {
  role: 'tool';
  content: MessageContent;
  tool_call_id: string;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessageInput | ToolMessage;

export interface ReasoningDetail {
  type: string;
  text?: string;
  summary?: string;
  data?: string;
  signature?: string;
  id?: string;
  format?: string;
  index?: number;
  [key: string]: unknown;
}

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
  cache_control?: CacheControl;
}

/** Server tools (`openrouter:web_search`, …) and other vendor tool kinds. */
export interface OtherTool {
  type: string;
  [key: string]: unknown;
}

export type Tool = FunctionTool | OtherTool;

export type ToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: 'function'; function: { name: string } }
  | { type: string; [key: string]: unknown };

export function isFunctionTool(tool: Tool): tool is FunctionTool {
  return tool.type === 'function' && typeof (tool as FunctionTool).function?.name === 'string';
}

/** The plain text of a content value (text parts joined); non-text parts are ignored. */
export function contentText(content: MessageContent | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  let out = '';
  for (const part of content) {
    if (part.type === 'text' && typeof (part as TextPart).text === 'string') out += (part as TextPart).text;
  }
  return out;
}
