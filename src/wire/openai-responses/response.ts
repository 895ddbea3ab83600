import type { CanonicalAssistantMessage, CanonicalUsage } from '../../canonical/index.js';
import type {
  FunctionCallItem,
  OutputItem,
  OutputText,
  ReasoningText,
  ResponseEcho,
  ResponseObject,
  ResponseStatus,
  ResponsesUsage,
} from './wire.js';

/** What the edge knows about a call when it writes a response object. */
export interface ResponseContext {
  /** The generation id: the response's `id` (and the suffix of its item ids). */
  id: string;
  /** Catalog slug of the model that served. */
  model: string;
  createdAt: number;
  echo: ResponseEcho;
  provider?: string;
  /** The response is kept (`store`); absent: it is not. */
  store?: boolean;
}

/** Item id `<prefix>_<generation id without its "gen-">` (stable per call, unique per item). */
export function itemId(prefix: 'msg' | 'fc' | 'rs', ctx: ResponseContext, n = 0): string {
  const base = ctx.id.startsWith('gen-') ? ctx.id.slice(4) : ctx.id;
  return n === 0 ? `${prefix}_${base}` : `${prefix}_${base}_${n}`;
}

export function responsesUsage(usage: CanonicalUsage, cost?: number | null): ResponsesUsage {
  const out: ResponsesUsage = {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens,
  };
  if (typeof cost === 'number') out.cost = cost;
  return out;
}

/** `status` and `incomplete_details` for a chat finish reason. */
export function statusFor(finishReason: string | null): {
  status: ResponseStatus;
  incomplete_details: ResponseObject['incomplete_details'];
} {
  if (finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  if (finishReason === 'error') return { status: 'failed', incomplete_details: null };
  return { status: 'completed', incomplete_details: null };
}

/** A response object around `output` (also the `response` of every lifecycle stream event). */
export function responseObject(
  ctx: ResponseContext,
  parts: {
    status: ResponseStatus;
    output: OutputItem[];
    incomplete_details?: ResponseObject['incomplete_details'];
    error?: ResponseObject['error'];
    usage?: ResponsesUsage;
    completedAt?: number;
  },
): ResponseObject {
  const out: ResponseObject = {
    id: ctx.id,
    object: 'response',
    created_at: ctx.createdAt,
    status: parts.status,
    background: false,
    error: parts.error ?? null,
    incomplete_details: parts.incomplete_details ?? null,
    ...ctx.echo,
    model: ctx.model,
    output: parts.output,
    store: ctx.store === true,
    truncation: 'disabled',
  };
  if (parts.completedAt !== undefined) out.completed_at = parts.completedAt;
  if (parts.usage !== undefined) out.usage = parts.usage;
  if (ctx.provider !== undefined) out.provider = ctx.provider;
  return out;
}

/**
 * The JSON text of a response object from `responseObject`, given its echo's members and its
 * output as JSON text (a stream renders each once per call): equal to `JSON.stringify(response)`,
 * so it follows `responseObject`'s keys and their order, and changes with it.
 */
export function responseJson(response: ResponseObject, echoMembers: string, outputJson: string): string {
  const s = JSON.stringify;
  let json =
    `{"id":${s(response.id)},"object":"response","created_at":${s(response.created_at)},` +
    `"status":${s(response.status)},"background":false,"error":${s(response.error)},` +
    `"incomplete_details":${s(response.incomplete_details)}${echoMembers === '' ? '' : ','}${echoMembers},` +
    `"model":${s(response.model)},"output":${outputJson},"store":${s(response.store)},"truncation":"disabled"`;
  if (response.completed_at !== undefined) json += `,"completed_at":${s(response.completed_at)}`;
  if (response.usage !== undefined) json += `,"usage":${s(response.usage)}`;
  if (response.provider !== undefined) json += `,"provider":${s(response.provider)}`;
  return json + '}';
}

/** The output items of a whole assistant message: reasoning, then text, then function calls. */
/** A message item's one content part (the key order `partJson` in stream-json.ts writes). */
export function outputTextPart(text: string): OutputText {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

/** A reasoning item's one content part. */
export function reasoningTextPart(text: string): ReasoningText {
  return { type: 'reasoning_text', text };
}

export function outputItems(message: CanonicalAssistantMessage, ctx: ResponseContext, complete: boolean): OutputItem[] {
  const status = complete ? 'completed' : 'incomplete';
  const items: OutputItem[] = [];
  const reasoning = message.reasoning ?? '';
  if (reasoning !== '')
    items.push({
      type: 'reasoning',
      id: itemId('rs', ctx),
      summary: [],
      content: [reasoningTextPart(reasoning)],
      status,
    });
  const text = message.content ?? message.refusal ?? '';
  const calls = message.tool_calls ?? [];
  if (text !== '' || calls.length === 0)
    items.push({
      type: 'message',
      id: itemId('msg', ctx),
      role: 'assistant',
      status,
      content: [outputTextPart(text)],
    });
  calls.forEach((call, n) => {
    const item: FunctionCallItem = {
      type: 'function_call',
      id: itemId('fc', ctx, n),
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: 'completed',
    };
    items.push(item);
  });
  return items;
}

/** A whole (non-streamed) answer as a response object. */
export function encodeResponse(
  answer: {
    message: CanonicalAssistantMessage;
    finishReason: string | null;
    usage: CanonicalUsage;
    cost?: number | null;
  },
  ctx: ResponseContext,
  completedAt = Math.floor(Date.now() / 1000),
): ResponseObject {
  const { status, incomplete_details } = statusFor(answer.finishReason);
  return responseObject(ctx, {
    status,
    incomplete_details,
    output: outputItems(answer.message, ctx, status === 'completed'),
    usage: responsesUsage(answer.usage, answer.cost),
    ...(status === 'completed' ? { completedAt } : {}),
  });
}
