import type { Json } from '../fake-upstream/json.js';
import {
  estimateTokens,
  fakeVector,
  scriptStop,
  type CloudScript,
  type FailureScript,
  type StopScript,
} from './script.js';

/** The Gemini wire (Gemini API and Vertex AI share it): answers, request checks, Google's errors. */
const GEMINI_FINISHES: Record<StopScript, string> = {
  end: 'STOP',
  max_tokens: 'MAX_TOKENS',
  tool_use: 'STOP',
  stop_sequence: 'STOP',
  content_filter: 'SAFETY',
  safety: 'SAFETY',
};

export function geminiFinish(stop: StopScript): string {
  return GEMINI_FINISHES[stop];
}

function usageMetadata(s: CloudScript): Json {
  const u: Json = {
    promptTokenCount: s.usage.input,
    candidatesTokenCount: s.usage.output,
    totalTokenCount: s.usage.input + s.usage.output + s.usage.reasoning,
  };
  if (s.usage.reasoning > 0) u.thoughtsTokenCount = s.usage.reasoning;
  if (s.usage.cacheRead > 0) u.cachedContentTokenCount = s.usage.cacheRead;
  return u;
}

function candidate(parts: Json[], finish: string | null): Json {
  const c: Json = { content: { role: 'model', parts }, index: 0 };
  if (finish !== null) {
    c.finishReason = finish;
    if (finish === 'SAFETY') {
      c.safetyRatings = [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }];
    }
  }
  return c;
}

function toolParts(s: CloudScript): Json[] {
  return s.toolCalls.map((call, i) => {
    const part: Json = { functionCall: { id: call.id, name: call.name, args: call.input } };
    if (i === 0 && s.thinking !== null) part.thoughtSignature = Buffer.from(s.thinking.signature).toString('base64');
    return part;
  });
}

export function geminiResponse(s: CloudScript, modelVersion: string): Json {
  const parts: Json[] = [];
  if (s.thinking !== null) parts.push({ text: s.thinking.text, thought: true });
  if (s.pieces.length > 0) parts.push({ text: s.pieces.join('') });
  parts.push(...toolParts(s));
  return {
    candidates: [candidate(parts, geminiFinish(scriptStop(s)))],
    usageMetadata: usageMetadata(s),
    modelVersion,
    responseId: 'fake-gemini-0001',
  };
}

/** streamGenerateContent chunks: thought, text pieces, function calls; the last one with finish and usage. */
export function geminiChunks(s: CloudScript, modelVersion: string): Json[] {
  const chunk = (parts: Json[], finish: string | null = null): Json => ({
    candidates: [candidate(parts, finish)],
    usageMetadata:
      finish === null ? { promptTokenCount: s.usage.input, totalTokenCount: s.usage.input } : usageMetadata(s),
    modelVersion,
    responseId: 'fake-gemini-0001',
  });
  const chunks: Json[] = [];
  if (s.thinking !== null) chunks.push(chunk([{ text: s.thinking.text, thought: true }]));
  for (const piece of s.pieces) chunks.push(chunk([{ text: piece }]));
  const tools = toolParts(s);
  if (tools.length > 0) chunks.push(chunk(tools));
  const last = chunk([], geminiFinish(scriptStop(s)));
  const lastContent = (last.candidates as Json[])[0] as Json;
  if (chunks.length === 0) lastContent.content = { role: 'model', parts: [{ text: '' }] };
  else delete lastContent.content;
  chunks.push(last);
  return chunks;
}

export interface GoogleError {
  status: number;
  body: Json;
}

export function googleError(code: number, status: string, message: string, details: Json[] = []): GoogleError {
  return { status: code, body: { error: { code, message, status, ...(details.length > 0 ? { details } : {}) } } };
}

export function scriptedGoogleError(fail: FailureScript): GoogleError {
  switch (fail) {
    case 'throttle':
      return googleError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
    case 'validation':
    case 'prompt_filter':
      return googleError(
        400,
        'INVALID_ARGUMENT',
        'The input token count exceeds the maximum number of tokens allowed.',
      );
    case 'auth':
      return googleError(403, 'PERMISSION_DENIED', 'Permission denied on resource (or it may not exist).');
    case 'server':
      return googleError(
        500,
        'INTERNAL',
        'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      );
  }
}

const REQUEST_FIELDS = [
  'contents',
  'systemInstruction',
  'system_instruction',
  'tools',
  'toolConfig',
  'tool_config',
  'safetySettings',
  'safety_settings',
  'generationConfig',
  'generation_config',
  'cachedContent',
  'cached_content',
  'labels',
  'model',
];
const PART_FIELDS = [
  'text',
  'thought',
  'thoughtSignature',
  'inlineData',
  'inline_data',
  'fileData',
  'file_data',
  'functionCall',
  'function_call',
  'functionResponse',
  'function_response',
  'executableCode',
  'codeExecutionResult',
  'videoMetadata',
];

/** Google's 400 for a bad generateContent body (as the API phrases it), or null. */
export function generateProblem(body: Json | null): GoogleError | null {
  const invalid = (message: string): GoogleError => googleError(400, 'INVALID_ARGUMENT', message);
  if (body === null) return invalid('Invalid JSON payload received.');
  for (const key of Object.keys(body)) {
    if (!REQUEST_FIELDS.includes(key))
      return invalid(`Invalid JSON payload received. Unknown name "${key}": Cannot find field.`);
  }
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0)
    return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  for (const [i, raw] of contents.entries()) {
    const content = raw as Json;
    if (
      content.role !== undefined &&
      content.role !== 'user' &&
      content.role !== 'model' &&
      content.role !== 'function'
    ) {
      return invalid('Please use a valid role: user, model.');
    }
    if (!Array.isArray(content.parts) || content.parts.length === 0)
      return invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`);
    for (const partRaw of content.parts) {
      const part = partRaw as Json;
      for (const key of Object.keys(part)) {
        if (!PART_FIELDS.includes(key))
          return invalid(
            `Invalid JSON payload received. Unknown name "${key}" at 'contents[${i}].parts[0]': Cannot find field.`,
          );
      }
      const inline = (part.inlineData ?? part.inline_data) as Json | undefined;
      if (inline !== undefined) {
        if (typeof inline.mimeType !== 'string' && typeof inline.mime_type !== 'string')
          return invalid(`* GenerateContentRequest.contents[${i}].parts[0].inline_data.mime_type: required field`);
        if (typeof inline.data !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(inline.data)) {
          return invalid(
            `Invalid value at 'contents[${i}].parts[0].inline_data.data' (TYPE_BYTES), Base64 decoding failed`,
          );
        }
      }
    }
  }
  return null;
}

function contentText(content: unknown): string {
  const parts = (content as Json | undefined)?.parts;
  return Array.isArray(parts) ? parts.map((p) => ((p as Json).text as string | undefined) ?? '').join('') : '';
}

/** countTokens: `contents` or a whole `generateContentRequest`; about four characters a token. */
export function countTokens(body: Json | null): Json {
  const request = (body?.generateContentRequest as Json | undefined) ?? body ?? {};
  const contents = Array.isArray(request.contents) ? request.contents : [];
  const text = contents.map(contentText).join('');
  const total = estimateTokens(text);
  return { totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] };
}

export function embedOne(request: Json | null): { values: number[] } | GoogleError {
  const text = contentText(request?.content);
  if (text === '')
    return googleError(400, 'INVALID_ARGUMENT', '* EmbedContentRequest.content: contents must not be empty\n');
  const dims = typeof request?.outputDimensionality === 'number' ? request.outputDimensionality : 768;
  return { values: fakeVector(text, dims) };
}
