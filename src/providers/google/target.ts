import { errors } from '../../errors/index.js';
import type { ProviderEndpointConfig } from '../../wire/adapter.js';
import { readGoogleError } from '../../wire/gemini-generate/index.js';
import { cachedWireTarget, type WireTarget } from '../wire-target.js';

/**
 * URLs of the Google kinds. The Gemini API: `{base}/models/{m}:{method}` (base with its version,
 * `…/v1beta` by default). Vertex AI: `{root}/v1/projects/{p}/locations/{l}/publishers/{pub}/models/{m}:{method}`,
 * where an endpoint's upstream model is Vertex's resource form `publishers/{pub}/models/{m}` or a
 * bare name of Google's own publisher.
 */

export type GoogleMethod =
  | 'generateContent'
  | 'streamGenerateContent'
  | 'countTokens'
  | 'batchEmbedContents'
  | 'predict'
  | 'rawPredict'
  | 'streamRawPredict';

const VERSIONED = /\/v1(?:beta\d*|alpha)?$/;
const RESOURCE = /^publishers\/([a-z0-9-]+)\/models\/([^/]+)$/;

/** A Vertex upstream model: its publisher and model id. */
export function vertexModel(upstreamModel: string): { publisher: string; model: string } {
  const m = RESOURCE.exec(upstreamModel);
  if (m !== null && m[1] !== undefined && m[2] !== undefined) return { publisher: m[1], model: m[2] };
  if (upstreamModel.includes('/'))
    throw errors.invalidRequest(`Vertex AI model "${upstreamModel}" is not publishers/{publisher}/models/{model}`);
  return { publisher: 'google', model: upstreamModel };
}

function trimmed(url: string): string {
  return url.replace(/\/+$/, '');
}

function modelUrl(endpoint: ProviderEndpointConfig, upstreamModel: string, method: GoogleMethod): string {
  const base = trimmed(endpoint.baseUrl);
  const stream = method === 'streamGenerateContent' ? '?alt=sse' : '';
  if (endpoint.kind !== 'vertex') {
    const model = encodeURIComponent(upstreamModel.replace(/^models\//, ''));
    return `${VERSIONED.test(base) ? base : `${base}/v1beta`}/models/${model}:${method}${stream}`;
  }
  const google = endpoint.google;
  if (google === null || google === undefined) throw new Error(`Vertex provider ${endpoint.providerId} has no project`);
  const { publisher, model } = vertexModel(upstreamModel);
  const root = VERSIONED.test(base) ? base : `${base}/v1`;
  const scope = `projects/${encodeURIComponent(google.project)}/locations/${encodeURIComponent(google.location)}`;
  return `${root}/${scope}/publishers/${publisher}/models/${encodeURIComponent(model).replace(/%40/g, '@')}:${method}${stream}`;
}

/** The target of one model and method of an endpoint, built once per (frozen) endpoint config. */
export function googleTarget(
  endpoint: ProviderEndpointConfig,
  upstreamModel: string,
  method: GoogleMethod,
): WireTarget {
  return cachedWireTarget(endpoint, `google ${method} ${upstreamModel}`, () => {
    const streaming = method === 'streamGenerateContent' || method === 'streamRawPredict';
    return {
      url: modelUrl(endpoint, upstreamModel, method),
      headers: {
        accept: streaming ? 'text/event-stream' : 'application/json',
        'content-type': 'application/json',
        ...endpoint.headers,
      },
      readError: readGoogleError,
    };
  });
}
