import { failFromResponse, type UpstreamHttpClient, type UpstreamResponse } from '../../upstream/index.js';
import type { CallContext, ProviderEndpointConfig } from '../../wire/adapter.js';
import { bedrockErrorReader, bedrockErrorType } from '../../wire/bedrock-converse/error-body.js';
import { cachedWireTarget, upstreamCall, type WireTarget } from '../wire-target.js';

export type BedrockOperation = 'converse' | 'converse-stream' | 'invoke' | 'invoke-with-response-stream';

const EVENTSTREAM = 'application/vnd.amazon.eventstream';

/**
 * `POST {base}/model/{modelId}/{operation}`: the model id (or inference-profile id or ARN) is one
 * path segment, percent-encoded (`:` and `/` included), as the AWS SDK sends and signs it.
 */
export function bedrockTarget(
  endpoint: ProviderEndpointConfig,
  modelId: string,
  operation: BedrockOperation,
): WireTarget {
  return cachedWireTarget(endpoint, `bedrock ${operation} ${modelId}`, () => {
    const stream = operation === 'converse-stream' || operation === 'invoke-with-response-stream';
    return {
      url: `${endpoint.baseUrl.replace(/\/+$/, '')}/model/${encodeURIComponent(modelId)}/${operation}`,
      headers: {
        accept: stream ? EVENTSTREAM : 'application/json',
        'content-type': 'application/json',
        ...endpoint.headers,
      },
      readError: bedrockErrorReader(null),
    };
  });
}

/**
 * POSTs a JSON body to Bedrock; resolves with a 2xx response, rejects with the mapped error
 * otherwise. Bedrock names the error in `x-amzn-errortype`; its type, not only the HTTP status,
 * decides the mapping (a quota exceeded is a throttle, whatever status carries it).
 */
export async function postToBedrock(
  http: UpstreamHttpClient,
  endpoint: ProviderEndpointConfig,
  target: WireTarget,
  body: string,
  ctx: CallContext,
): Promise<UpstreamResponse> {
  const call = upstreamCall(endpoint, target, body, ctx);
  const res = await http.send(call);
  if (res.status >= 200 && res.status <= 299) return res;
  return failFromResponse(res, call, bedrockErrorReader(bedrockErrorType(res.headers['x-amzn-errortype'])));
}
