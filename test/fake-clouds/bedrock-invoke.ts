import type { Json } from '../fake-upstream/json.js';
import { anthropicBodyProblem, anthropicEvents, anthropicMessage } from './anthropic-render.js';
import { eventFrame } from './eventstream.js';
import { estimateTokens, fakeVector, type CloudScript } from './script.js';

/** InvokeModel bodies of the models the fake serves: Claude (Messages), Titan v2 and Cohere embeddings. */
export type InvokeAnswer = { ok: true; body: Json; headers: Record<string, string> } | { ok: false; message: string };

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

export function isAnthropicModel(modelId: string): boolean {
  return /(^|\.)anthropic\./.test(modelId) || (modelId.startsWith('arn:') && modelId.includes('anthropic'));
}

export function invokeJson(modelId: string, body: Json | null, script: CloudScript): InvokeAnswer {
  if (isAnthropicModel(modelId)) {
    const problem = anthropicBodyProblem(body, BEDROCK_ANTHROPIC_VERSION);
    if (problem !== null) return { ok: false, message: problem };
    return {
      ok: true,
      body: anthropicMessage(script, modelId, 'msg_bdrk_fake0001'),
      headers: tokenHeaders(script.usage.input, script.usage.output),
    };
  }
  if (modelId.startsWith('amazon.titan-embed-text-v2')) return titan(body);
  if (modelId.startsWith('cohere.embed-')) return cohere(body);
  return { ok: false, message: 'The provided model identifier is invalid.' };
}

/** InvokeModelWithResponseStream frames: each Anthropic event base64'd in a `chunk` event. */
export function invokeStreamFrames(
  modelId: string,
  body: Json | null,
  script: CloudScript,
): { ok: true; frames: Uint8Array[] } | { ok: false; message: string } {
  if (!isAnthropicModel(modelId)) return { ok: false, message: 'The model is unsupported for streaming.' };
  const problem = anthropicBodyProblem(body, BEDROCK_ANTHROPIC_VERSION);
  if (problem !== null) return { ok: false, message: problem };
  const events = anthropicEvents(script, modelId, 'msg_bdrk_fake0001');
  const last = events[events.length - 1];
  if (last !== undefined) {
    last['amazon-bedrock-invocationMetrics'] = {
      inputTokenCount: script.usage.input,
      outputTokenCount: script.usage.output,
      invocationLatency: 42,
      firstByteLatency: 10,
      cacheReadInputTokenCount: script.usage.cacheRead,
      cacheWriteInputTokenCount: script.usage.cacheWrite,
    };
  }
  return {
    ok: true,
    frames: events.map((e) => eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(e)).toString('base64') })),
  };
}

function tokenHeaders(input: number, output: number | null): Record<string, string> {
  const headers: Record<string, string> = {
    'x-amzn-bedrock-input-token-count': String(input),
    'x-amzn-bedrock-invocation-latency': '42',
  };
  if (output !== null) headers['x-amzn-bedrock-output-token-count'] = String(output);
  return headers;
}

function titan(body: Json | null): InvokeAnswer {
  if (body === null || typeof body.inputText !== 'string' || body.inputText === '') {
    return {
      ok: false,
      message:
        'Malformed input request: #: required key [inputText] not found, please reformat your input and try again.',
    };
  }
  for (const key of Object.keys(body)) {
    if (!['inputText', 'dimensions', 'normalize', 'embeddingTypes'].includes(key))
      return {
        ok: false,
        message: `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
      };
  }
  const dimensions = body.dimensions ?? 1024;
  if (dimensions !== 256 && dimensions !== 512 && dimensions !== 1024) {
    return {
      ok: false,
      message: `Malformed input request: #/dimensions: ${JSON.stringify(dimensions)} is not a valid enum value, please reformat your input and try again.`,
    };
  }
  const embedding = fakeVector(body.inputText, dimensions);
  const tokens = estimateTokens(body.inputText);
  return {
    ok: true,
    body: { embedding, embeddingsByType: { float: embedding }, inputTextTokenCount: tokens },
    headers: tokenHeaders(tokens, null),
  };
}

const COHERE_INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering'];

function cohere(body: Json | null): InvokeAnswer {
  const texts = body?.texts;
  if (body === null || !Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
    return {
      ok: false,
      message: 'Malformed input request: #: required key [texts] not found, please reformat your input and try again.',
    };
  }
  if (texts.length > 96)
    return {
      ok: false,
      message: 'Malformed input request: #/texts: expected maximum item count: 96, found: ' + texts.length,
    };
  if (!COHERE_INPUT_TYPES.includes(String(body.input_type))) {
    return {
      ok: false,
      message:
        'Malformed input request: #: required key [input_type] not found, please reformat your input and try again.',
    };
  }
  const vectors = texts.map((t) => fakeVector(t, 1024));
  const byType = Array.isArray(body.embedding_types);
  const tokens = texts.reduce((n, t) => n + estimateTokens(t), 0);
  return {
    ok: true,
    body: {
      id: 'fake-cohere-0001',
      texts,
      embeddings: byType ? { float: vectors } : vectors,
      response_type: byType ? 'embeddings_by_type' : 'embeddings_floats',
    },
    headers: tokenHeaders(tokens, null),
  };
}
