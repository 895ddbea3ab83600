import {
  contentText,
  estimatedUsage,
  parseOpenAiUsage,
  type CanonicalAssistantMessage,
  type CanonicalChatResponse,
  type CanonicalChoice,
  type CanonicalChunk,
  type CanonicalChunkChoice,
  type CanonicalCompletionChoice,
  type CanonicalDelta,
  type MessageContent,
  type ReasoningDetail,
  type ToolCall,
  type ToolCallDelta,
} from '../../../canonical/index.js';
import { int, isRecord, nowSeconds, str, type JsonRecord } from '../../../canonical/json.js';

/** Normalises OpenAI-shaped JSON (from any OpenAI-style vendor) into canonical objects. */

function finishReason(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function toolCalls(value: unknown): ToolCall[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: ToolCall[] = [];
  for (const item of value) {
    if (!isRecord(item) || !isRecord(item.function)) continue;
    const args = item.function.arguments;
    out.push({
      id: str(item.id) ?? `call_${out.length}`,
      type: 'function',
      function: {
        name: str(item.function.name) ?? '',
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      },
    });
  }
  return out;
}

function reasoningDetails(value: unknown): ReasoningDetail[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((d): d is ReasoningDetail => isRecord(d) && typeof d.type === 'string');
}

function message(value: unknown): CanonicalAssistantMessage {
  const m = isRecord(value) ? value : {};
  const content = m.content;
  const out: CanonicalAssistantMessage = {
    role: 'assistant',
    content:
      typeof content === 'string' ? content : Array.isArray(content) ? contentText(content as MessageContent) : null,
    refusal: str(m.refusal) ?? null,
  };
  const reasoning = str(m.reasoning) ?? str(m.reasoning_content);
  if (reasoning !== undefined) out.reasoning = reasoning;
  const details = reasoningDetails(m.reasoning_details);
  if (details !== undefined && details.length > 0) out.reasoning_details = details;
  const calls = toolCalls(m.tool_calls);
  if (calls !== undefined && calls.length > 0) out.tool_calls = calls;
  return out;
}

function assistantText(m: CanonicalAssistantMessage): string {
  let text = (m.content ?? '') + (m.reasoning ?? '');
  for (const call of m.tool_calls ?? []) text += call.function.name + call.function.arguments;
  return text;
}

/** `fallback.prompt` is called only when the body has no usage (the prompt is then counted by us). */
export function chatResponse(
  body: unknown,
  fallback: { model: string; id: string; prompt: () => string },
): CanonicalChatResponse | null {
  if (!isRecord(body) || !Array.isArray(body.choices)) return null;
  const choices: CanonicalChoice[] = body.choices.map((c: unknown, i) => {
    const choice = isRecord(c) ? c : {};
    const out: CanonicalChoice = {
      index: int(choice.index) ?? i,
      message: message(choice.message),
      finish_reason: finishReason(choice.finish_reason),
    };
    if (choice.native_finish_reason !== undefined) out.native_finish_reason = str(choice.native_finish_reason) ?? null;
    if (isRecord(choice.logprobs)) {
      const lp = choice.logprobs;
      out.logprobs = { ...lp, content: Array.isArray(lp.content) ? lp.content : null };
    }
    return out;
  });
  const usage =
    parseOpenAiUsage(body.usage) ??
    estimatedUsage(fallback.prompt(), choices.map((c) => assistantText(c.message)).join(''));
  const out: CanonicalChatResponse = {
    id: str(body.id) ?? fallback.id,
    object: 'chat.completion',
    created: int(body.created) ?? nowSeconds(),
    model: str(body.model) ?? fallback.model,
    choices,
    system_fingerprint: str(body.system_fingerprint) ?? null,
    usage,
  };
  if (typeof body.service_tier === 'string') out.service_tier = body.service_tier;
  return out;
}

function delta(value: unknown): CanonicalDelta {
  const d = isRecord(value) ? value : {};
  const out: CanonicalDelta = {};
  if (d.role === 'assistant') out.role = 'assistant';
  if (typeof d.content === 'string') out.content = d.content;
  const reasoning = str(d.reasoning) ?? str(d.reasoning_content);
  if (reasoning !== undefined) out.reasoning = reasoning;
  const details = reasoningDetails(d.reasoning_details);
  if (details !== undefined && details.length > 0) out.reasoning_details = details;
  if (typeof d.refusal === 'string') out.refusal = d.refusal;
  if (Array.isArray(d.tool_calls)) {
    const calls: ToolCallDelta[] = [];
    d.tool_calls.forEach((t: unknown, i) => {
      if (!isRecord(t)) return;
      const call: ToolCallDelta = { index: int(t.index) ?? i };
      if (typeof t.id === 'string') call.id = t.id;
      if (t.type === 'function') call.type = 'function';
      if (isRecord(t.function)) {
        call.function = {};
        if (typeof t.function.name === 'string') call.function.name = t.function.name;
        if (typeof t.function.arguments === 'string') call.function.arguments = t.function.arguments;
      }
      calls.push(call);
    });
    if (calls.length > 0) out.tool_calls = calls;
  }
  return out;
}

export function chatChunk(body: JsonRecord, fallback: { model: string; id: string; created: number }): CanonicalChunk {
  // A module function rather than a closure: this runs once per streamed event.
  const choices: CanonicalChunkChoice[] = Array.isArray(body.choices) ? body.choices.map(chunkChoice) : [];
  const chunk: CanonicalChunk = {
    id: str(body.id) ?? fallback.id,
    object: 'chat.completion.chunk',
    created: int(body.created) ?? fallback.created,
    model: str(body.model) ?? fallback.model,
    choices,
  };
  const usage = parseOpenAiUsage(body.usage);
  if (usage !== null) chunk.usage = usage;
  if (typeof body.system_fingerprint === 'string') chunk.system_fingerprint = body.system_fingerprint;
  if (typeof body.service_tier === 'string') chunk.service_tier = body.service_tier;
  return chunk;
}

function chunkChoice(c: unknown, i: number): CanonicalChunkChoice {
  const choice = isRecord(c) ? c : {};
  const out: CanonicalChunkChoice = {
    index: int(choice.index) ?? i,
    delta: delta(choice.delta),
    finish_reason: finishReason(choice.finish_reason),
  };
  if (choice.logprobs !== undefined && choice.logprobs !== null) out.logprobs = choice.logprobs;
  return out;
}

export function completionChoices(body: JsonRecord): CanonicalCompletionChoice[] {
  if (!Array.isArray(body.choices)) return [];
  return body.choices.map((c: unknown, i) => {
    const choice = isRecord(c) ? c : {};
    const out: CanonicalCompletionChoice = {
      text: str(choice.text) ?? '',
      index: int(choice.index) ?? i,
      finish_reason: finishReason(choice.finish_reason),
    };
    if (choice.logprobs !== undefined) out.logprobs = choice.logprobs;
    return out;
  });
}
