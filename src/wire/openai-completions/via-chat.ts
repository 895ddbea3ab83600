import {
  addUsage,
  makeUsage,
  SHARED_SAMPLING_FIELDS,
  type CanonicalChatRequest,
  type CanonicalCompletionChoice,
  type CanonicalCompletionChunk,
  type CanonicalCompletionRequest,
  type CanonicalCompletionResponse,
  type CanonicalUsage,
  type SamplingParameters,
} from '../../canonical/index.js';
import { primeStream } from '../primed-stream.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../adapter.js';

/** Completion-only fields a chat upstream would reject. */
const COMPLETION_ONLY = new Set(['echo', 'suffix', 'best_of', 'logprobs', 'n']);

/** One legacy prompt as a single user turn; sampling params copied, completion-only extras dropped. */
function completionToChatRequest(req: CanonicalCompletionRequest, prompt: string): CanonicalChatRequest {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(req.extra)) if (!COMPLETION_ONLY.has(key)) extra[key] = value;
  const chat: CanonicalChatRequest = { model: req.model, messages: [{ role: 'user', content: prompt }], extra };
  for (const field of SHARED_SAMPLING_FIELDS) copyField(req, chat, field);
  return chat;
}

function copyField<K extends keyof SamplingParameters>(
  from: SamplingParameters,
  to: SamplingParameters,
  field: K,
): void {
  if (from[field] !== undefined) to[field] = from[field];
}

function prompts(req: CanonicalCompletionRequest): string[] {
  return typeof req.prompt === 'string' ? [req.prompt] : req.prompt.length === 0 ? [''] : req.prompt;
}

/** Legacy completion served by an adapter's chat (one chat call per prompt, in order). */
async function completionViaChat(
  adapter: ProviderAdapter,
  endpoint: ProviderEndpointConfig,
  req: CanonicalCompletionRequest,
  ctx: CallContext,
): Promise<CanonicalCompletionResponse> {
  const choices: CanonicalCompletionChoice[] = [];
  let usage: CanonicalUsage | null = null;
  let head: { id: string; created: number; model: string } | null = null;
  for (const [index, prompt] of prompts(req).entries()) {
    const res = await adapter.chat(endpoint, { ...completionToChatRequest(req, prompt), stream: false }, ctx);
    head ??= { id: res.id, created: res.created, model: res.model };
    const first = res.choices[0];
    choices.push({ text: first?.message.content ?? '', index, finish_reason: first?.finish_reason ?? null });
    usage = usage === null ? res.usage : addUsage(usage, res.usage);
  }
  return {
    id: head?.id ?? `gen-${ctx.requestId}`,
    object: 'text_completion',
    created: head?.created ?? Math.floor(Date.now() / 1000),
    model: head?.model ?? req.model,
    choices,
    usage: usage ?? makeUsage(0, 0),
  };
}

/** Streaming legacy completion over chatStream; the last event carries the summed usage. */
async function completionStreamViaChat(
  adapter: ProviderAdapter,
  endpoint: ProviderEndpointConfig,
  req: CanonicalCompletionRequest,
  ctx: CallContext,
): Promise<AsyncIterable<CanonicalCompletionChunk>> {
  return primeStream(streamAll(adapter, endpoint, req, ctx));
}

async function* streamAll(
  adapter: ProviderAdapter,
  endpoint: ProviderEndpointConfig,
  req: CanonicalCompletionRequest,
  ctx: CallContext,
): AsyncGenerator<CanonicalCompletionChunk, void, undefined> {
  let usage: CanonicalUsage | null = null;
  let head = { id: `gen-${ctx.requestId}`, created: Math.floor(Date.now() / 1000), model: req.model };
  for (const [index, prompt] of prompts(req).entries()) {
    const stream = await adapter.chatStream(endpoint, { ...completionToChatRequest(req, prompt), stream: true }, ctx);
    for await (const chunk of stream) {
      if (index === 0 && usage === null) head = { id: chunk.id, created: chunk.created, model: chunk.model };
      if (chunk.usage !== undefined) usage = usage === null ? chunk.usage : addUsage(usage, chunk.usage);
      for (const choice of chunk.choices) {
        const text = choice.delta.content ?? '';
        if (text === '' && choice.finish_reason === null) continue;
        yield { ...head, object: 'text_completion', choices: [{ text, index, finish_reason: choice.finish_reason }] };
      }
    }
  }
  yield {
    ...head,
    object: 'text_completion',
    choices: [],
    usage: usage ?? makeUsage(0, 0),
  };
}

/** The adapter's native legacy completion when it has one, otherwise the chat conversion. */
export function legacyCompletion(adapter: ProviderAdapter): {
  completion: (
    e: ProviderEndpointConfig,
    r: CanonicalCompletionRequest,
    c: CallContext,
  ) => Promise<CanonicalCompletionResponse>;
  completionStream: (
    e: ProviderEndpointConfig,
    r: CanonicalCompletionRequest,
    c: CallContext,
  ) => Promise<AsyncIterable<CanonicalCompletionChunk>>;
} {
  return {
    completion: adapter.completion?.bind(adapter) ?? ((e, r, c) => completionViaChat(adapter, e, r, c)),
    completionStream:
      adapter.completionStream?.bind(adapter) ?? ((e, r, c) => completionStreamViaChat(adapter, e, r, c)),
  };
}
