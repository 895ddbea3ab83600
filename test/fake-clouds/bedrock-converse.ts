import type { Json } from '../fake-upstream/json.js';
import { eventFrame } from './eventstream.js';
import { scriptStop, scriptText, type CloudScript, type StopScript } from './script.js';

/** Bedrock Converse: the request checks Bedrock makes, and the answer (JSON and ConverseStream frames). */
const CONVERSE_STOPS: Record<StopScript, string> = {
  end: 'end_turn',
  max_tokens: 'max_tokens',
  tool_use: 'tool_use',
  stop_sequence: 'stop_sequence',
  content_filter: 'content_filtered',
  safety: 'guardrail_intervened',
};

export function converseStop(stop: StopScript): string {
  return CONVERSE_STOPS[stop];
}

function usage(s: CloudScript): Json {
  const u: Json = {
    inputTokens: s.usage.input,
    outputTokens: s.usage.output,
    totalTokens: s.usage.input + s.usage.output,
  };
  if (s.usage.cacheRead > 0) u.cacheReadInputTokens = s.usage.cacheRead;
  if (s.usage.cacheWrite > 0) u.cacheWriteInputTokens = s.usage.cacheWrite;
  return u;
}

export function converseResponse(s: CloudScript): Json {
  const content: Json[] = [];
  if (s.thinking !== null)
    content.push({ reasoningContent: { reasoningText: { text: s.thinking.text, signature: s.thinking.signature } } });
  if (s.pieces.length > 0) content.push({ text: scriptText(s) });
  for (const call of s.toolCalls) content.push({ toolUse: { toolUseId: call.id, name: call.name, input: call.input } });
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: converseStop(scriptStop(s)),
    usage: usage(s),
    metrics: { latencyMs: 42 },
  };
}

export function converseStreamFrames(s: CloudScript): Uint8Array[] {
  const frames: Uint8Array[] = [eventFrame('messageStart', { role: 'assistant' })];
  let index = 0;
  if (s.thinking !== null) {
    frames.push(
      eventFrame('contentBlockDelta', {
        contentBlockIndex: index,
        delta: { reasoningContent: { text: s.thinking.text } },
      }),
    );
    frames.push(
      eventFrame('contentBlockDelta', {
        contentBlockIndex: index,
        delta: { reasoningContent: { signature: s.thinking.signature } },
      }),
    );
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex: index++ }));
  }
  if (s.pieces.length > 0) {
    for (const piece of s.pieces)
      frames.push(eventFrame('contentBlockDelta', { contentBlockIndex: index, delta: { text: piece } }));
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex: index++ }));
  }
  for (const call of s.toolCalls) {
    frames.push(
      eventFrame('contentBlockStart', {
        contentBlockIndex: index,
        start: { toolUse: { toolUseId: call.id, name: call.name } },
      }),
    );
    frames.push(
      eventFrame('contentBlockDelta', {
        contentBlockIndex: index,
        delta: { toolUse: { input: JSON.stringify(call.input) } },
      }),
    );
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex: index++ }));
  }
  frames.push(eventFrame('messageStop', { stopReason: converseStop(scriptStop(s)) }));
  frames.push(eventFrame('metadata', { usage: usage(s), metrics: { latencyMs: 42 } }));
  return frames;
}

const BLOCK_KINDS = [
  'text',
  'image',
  'document',
  'video',
  'toolUse',
  'toolResult',
  'guardContent',
  'reasoningContent',
  'cachePoint',
  'citationsContent',
];
const IMAGE_FORMATS = ['png', 'jpeg', 'gif', 'webp'];
const TOP_LEVEL = [
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'guardrailConfig',
  'additionalModelRequestFields',
  'promptVariables',
  'additionalModelResponseFieldPaths',
  'requestMetadata',
  'performanceConfig',
];

/** Bedrock's ValidationException message for a bad Converse body, or null. */
export function converseProblem(body: Json | null): string | null {
  if (body === null) return 'Malformed input request, please reformat your input and try again.';
  for (const key of Object.keys(body)) if (!TOP_LEVEL.includes(key)) return `Unknown field: ${key}`;
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
  let previousToolUses = new Set<string>();
  for (const [i, raw] of messages.entries()) {
    const m = raw as Json;
    const role = m.role;
    if (role !== 'user' && role !== 'assistant')
      return `1 validation error detected: Value '${String(role)}' at 'messages.${i + 1}.member.role' failed to satisfy constraint: Member must satisfy enum value set: [user, assistant]`;
    if (i === 0 && role !== 'user')
      return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
    if (i > 0 && (messages[i - 1] as Json).role === role)
      return 'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.';
    if (!Array.isArray(m.content) || m.content.length === 0)
      return `The content field in the Message object at messages.${i}.content is empty. Add a ContentBlock object to the content field and try again.`;
    const toolUses = new Set<string>();
    for (const blockRaw of m.content) {
      const block = blockRaw as Json;
      const kinds = Object.keys(block);
      if (kinds.length !== 1 || !BLOCK_KINDS.includes(kinds[0] ?? ''))
        return `Invalid content block at messages.${i}.content: exactly one member must be set`;
      const image = block.image as Json | undefined;
      if (image !== undefined) {
        if (!IMAGE_FORMATS.includes(String(image.format)))
          return `Invalid image format at messages.${i}: ${String(image.format)}`;
        const bytes = (image.source as Json | undefined)?.bytes;
        if (typeof bytes !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(bytes))
          return `messages.${i}: image source bytes must be base64`;
      }
      const toolUse = block.toolUse as Json | undefined;
      if (toolUse !== undefined) toolUses.add(String(toolUse.toolUseId));
      const toolResult = block.toolResult as Json | undefined;
      if (toolResult !== undefined && !previousToolUses.has(String(toolResult.toolUseId))) {
        return `The toolResult blocks at messages.${i}.content contain a toolUseId that does not match any toolUse blocks of the previous turn.`;
      }
    }
    previousToolUses = toolUses;
  }
  const inference = body.inferenceConfig as Json | undefined;
  if (inference !== undefined) {
    for (const key of Object.keys(inference)) {
      if (!['maxTokens', 'temperature', 'topP', 'stopSequences'].includes(key))
        return `Unknown field in inferenceConfig: ${key}`;
    }
    if (
      inference.maxTokens !== undefined &&
      !(Number.isInteger(inference.maxTokens) && (inference.maxTokens as number) >= 1)
    ) {
      return "1 validation error detected: Value at 'inferenceConfig.maxTokens' failed to satisfy constraint: Member must have value greater than or equal to 1";
    }
  }
  return null;
}
