import { GEMINI_TEST } from './credentials.js';
import {
  geminiChunks,
  geminiResponse,
  generateProblem,
  countTokens,
  embedOne,
  googleError,
  scriptedGoogleError,
  type GoogleError,
} from './gemini-wire.js';
import {
  firstByteDelay,
  header,
  sendFrames,
  sendJson,
  sendJsonOrCut,
  sseFrame,
  startCloudServer,
  type CloudFake,
  type CloudRequest,
} from './kit.js';
import type { CloudScript } from './script.js';
import type { ServerResponse } from 'node:http';

export type FakeGemini = CloudFake;

const ROUTE =
  /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents)$/;

/**
 * A fake Gemini API (generativelanguage.googleapis.com): `x-goog-api-key` (or `?key=`) required,
 * generateContent, streamGenerateContent (`?alt=sse`), countTokens, embedContent and
 * batchEmbedContents, Google's error envelope (`RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`, …).
 */
export async function startFakeGemini(apiKeys: string[] = [GEMINI_TEST.apiKey]): Promise<FakeGemini> {
  return startCloudServer(async ({ request, res, takeScript }) => {
    const key = header(request.headers, 'x-goog-api-key') ?? request.query.get('key');
    if (key === undefined || key === null) {
      send(
        res,
        googleError(
          403,
          'PERMISSION_DENIED',
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        ),
      );
      return;
    }
    if (!apiKeys.includes(key)) {
      send(
        res,
        googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
        ]),
      );
      return;
    }
    const route = request.method === 'POST' ? ROUTE.exec(request.path) : null;
    if (route === null) {
      send(res, googleError(404, 'NOT_FOUND', `Requested entity was not found.`));
      return;
    }
    const model = route[2] ?? '';
    await answerGemini(request, res, { model, method: route[3] ?? '', script: takeScript });
  });
}

export interface GeminiMethodCall {
  model: string;
  method: string;
  script: () => CloudScript;
}

/** The generateContent family, shared by the Gemini API and Vertex AI fakes. */
export async function answerGemini(request: CloudRequest, res: ServerResponse, call: GeminiMethodCall): Promise<void> {
  const body = request.body;
  if (call.method === 'countTokens') {
    sendJson(res, 200, countTokens(body));
    return;
  }
  if (call.method === 'embedContent') {
    const one = embedOne(body);
    if ('values' in one) sendJson(res, 200, { embedding: one });
    else send(res, one);
    return;
  }
  if (call.method === 'batchEmbedContents') {
    const requests = Array.isArray(body?.requests) ? (body.requests as Record<string, unknown>[]) : [];
    if (requests.length === 0)
      return send(
        res,
        googleError(400, 'INVALID_ARGUMENT', '* BatchEmbedContentsRequest.requests: requests must not be empty\n'),
      );
    const embeddings: { values: number[] }[] = [];
    for (const [i, r] of requests.entries()) {
      if (r.model !== `models/${call.model}`) {
        return send(
          res,
          googleError(
            400,
            'INVALID_ARGUMENT',
            `* BatchEmbedContentsRequest.requests[${i}].model: Model names should be the same. Expected: models/${call.model}, got: ${String(r.model)}\n`,
          ),
        );
      }
      const one = embedOne(r);
      if (!('values' in one)) return send(res, one);
      embeddings.push(one);
    }
    sendJson(res, 200, { embeddings });
    return;
  }
  const problem = generateProblem(body);
  if (problem !== null) return send(res, problem);
  const script = call.script();
  if (!(await firstByteDelay(res, script))) return;
  const streaming = call.method === 'streamGenerateContent';
  if (script.fail !== null && !(streaming && script.failMidStream)) return send(res, scriptedGoogleError(script.fail));
  const version = `${call.model}-fake-001`;
  if (!streaming) {
    await sendJsonOrCut(res, geminiResponse(script, version), script);
    return;
  }
  let chunks: unknown[] = geminiChunks(script, version);
  if (script.fail !== null) chunks = [...chunks.slice(0, 2), scriptedGoogleError(script.fail).body];
  if (request.query.get('alt') === 'sse') {
    await sendFrames(
      res,
      'text/event-stream',
      chunks.map((c) => sseFrame(c).replace(/\n/g, '\r\n')),
      script,
    );
    return;
  }
  // Without alt=sse Google streams one JSON array, an element at a time.
  const frames = chunks.map((c, i) => `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(c)}`);
  frames.push(']');
  await sendFrames(res, 'application/json; charset=UTF-8', frames, script);
}

export function send(res: ServerResponse, error: GoogleError): void {
  sendJson(res, error.status, error.body, { 'content-type': 'application/json; charset=UTF-8' });
}
