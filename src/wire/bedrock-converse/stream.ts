import type { CanonicalChunk, CanonicalDelta, CanonicalUsage } from '../../canonical/index.js';
import { int, isRecord, nowSeconds, str, type JsonRecord } from '../../canonical/json.js';
import { protocolError } from '../../upstream/index.js';
import type { AwsEventMessage } from '../../upstream/framing/aws-eventstream.js';
import { bedrockStreamError } from './error-body.js';
import { converseFinish, converseUsage, reasoningDetail, REASONING_FORMAT } from './response.js';

/**
 * ConverseStream events (messageStart, contentBlockStart/Delta/Stop, messageStop, metadata; or an
 * exception) → canonical chunks. The stop reason comes in `messageStop`, the usage after it in
 * `metadata`: the finish chunk is held back until the usage is known, and the last chunk carries it.
 */

export interface ConverseStreamOptions {
  providerId: string;
  apiKey: string | null;
  id: string;
  model: string;
}

interface StreamState {
  created: number;
  toolIndexByBlock: Map<number, number>;
  stop: string | null;
  usage: CanonicalUsage | null;
}

export async function* converseChunks(
  events: AsyncIterable<AwsEventMessage>,
  opts: ConverseStreamOptions,
): AsyncGenerator<CanonicalChunk, void, undefined> {
  const st: StreamState = { created: nowSeconds(), toolIndexByBlock: new Map(), stop: null, usage: null };
  const chunk = (delta: CanonicalDelta, finish: string | null = null, native?: string): CanonicalChunk => {
    const choice = {
      index: 0,
      delta,
      finish_reason: finish,
      ...(native === undefined ? {} : { native_finish_reason: native }),
    };
    return { id: opts.id, object: 'chat.completion.chunk', created: st.created, model: opts.model, choices: [choice] };
  };
  for await (const message of events) {
    if (message.messageType !== 'event') {
      throw bedrockStreamError({
        type: message.type,
        body: message.body,
        providerId: opts.providerId,
        apiKey: opts.apiKey,
      });
    }
    const data = parse(message.body, opts.providerId);
    switch (message.type) {
      case 'messageStart':
        yield chunk({ role: 'assistant', content: '' });
        break;
      case 'contentBlockStart': {
        const delta = blockStart(data, st);
        if (delta !== null) yield chunk(delta);
        break;
      }
      case 'contentBlockDelta': {
        const delta = blockDelta(data, st);
        if (delta !== null) yield chunk(delta);
        break;
      }
      case 'messageStop':
        st.stop = str(data.stopReason) ?? 'end_turn';
        break;
      case 'metadata':
        st.usage = converseUsage(data.usage);
        break;
      default:
        break; // contentBlockStop and event types Bedrock may add
    }
  }
  if (st.stop === null) throw protocolError(opts.providerId, 'Provider stream ended before messageStop');
  yield chunk({}, converseFinish(st.stop), st.stop);
  yield {
    id: opts.id,
    object: 'chat.completion.chunk',
    created: st.created,
    model: opts.model,
    choices: [],
    usage: st.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

function parse(body: Uint8Array, providerId: string): JsonRecord {
  try {
    const value = JSON.parse(Buffer.from(body).toString('utf8')) as unknown;
    return isRecord(value) ? value : {};
  } catch (error) {
    throw protocolError(providerId, 'Provider sent an invalid stream event', error);
  }
}

function blockStart(data: JsonRecord, st: StreamState): CanonicalDelta | null {
  const index = int(data.contentBlockIndex) ?? 0;
  const start = isRecord(data.start) ? data.start : {};
  if (!isRecord(start.toolUse)) return null;
  const toolIndex = st.toolIndexByBlock.size;
  st.toolIndexByBlock.set(index, toolIndex);
  return {
    tool_calls: [
      {
        index: toolIndex,
        id: str(start.toolUse.toolUseId) ?? `tooluse_${toolIndex}`,
        type: 'function',
        function: { name: str(start.toolUse.name) ?? '', arguments: '' },
      },
    ],
  };
}

function blockDelta(data: JsonRecord, st: StreamState): CanonicalDelta | null {
  const index = int(data.contentBlockIndex) ?? 0;
  const delta = isRecord(data.delta) ? data.delta : {};
  if (typeof delta.text === 'string') return { content: delta.text };
  if (isRecord(delta.toolUse)) {
    const toolIndex = st.toolIndexByBlock.get(index);
    if (toolIndex === undefined || typeof delta.toolUse.input !== 'string') return null;
    return { tool_calls: [{ index: toolIndex, function: { arguments: delta.toolUse.input } }] };
  }
  if (isRecord(delta.reasoningContent)) {
    const r = delta.reasoningContent;
    if (typeof r.text === 'string') {
      const detail = reasoningDetail({ reasoningText: { text: r.text } }, index);
      return { reasoning: r.text, reasoning_details: detail === null ? [] : [detail] };
    }
    if (typeof r.signature === 'string') {
      return {
        reasoning_details: [{ type: 'reasoning.text', signature: r.signature, format: REASONING_FORMAT, index }],
      };
    }
    const redacted = reasoningDetail(r, index);
    if (redacted !== null) return { reasoning_details: [redacted] };
  }
  return null;
}
