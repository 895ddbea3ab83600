import type { JsonRecord } from '../../canonical/json.js';
import { isAzureV1 } from '../../catalog/provider-fields/azure.js';
import { AZURE_UNSUPPORTED_CHAT_FIELDS } from '../../wire/openai-chat/outbound/declaration.js';
import { readOpenAiError } from '../../wire/openai-chat/outbound/error-body.js';
import type { ProviderEndpointConfig } from '../../wire/adapter.js';
import type { OpenAiPath, OpenAiRouting } from '../openai-compatible/adapter.js';
import { requestHeaders } from '../openai-compatible/target.js';
import { cachedWireTarget, type WireTarget } from '../wire-target.js';

/**
 * The URL of an operation on an Azure OpenAI resource. A dated `api_version` addresses the
 * deployment (the endpoint's upstream model) in the path:
 * `{base_url}/openai/deployments/{deployment}/chat/completions?api-version=…`; `v1` is OpenAI's
 * own path under `{base_url}/openai/v1`, the deployment named by the body's `model`.
 */
export function azureUrl(endpoint: ProviderEndpointConfig, path: OpenAiPath, deployment: string): string {
  const settings = endpoint.azure;
  if (settings === undefined) throw new Error(`Azure provider ${endpoint.providerId} has no api_version`);
  const resource = endpoint.baseUrl.replace(/\/+$/, '');
  if (isAzureV1(settings)) return `${resource}/openai/v1${path}`;
  const version = encodeURIComponent(settings.apiVersion);
  return `${resource}/openai/deployments/${encodeURIComponent(deployment)}${path}?api-version=${version}`;
}

function azureTarget(endpoint: ProviderEndpointConfig, path: OpenAiPath, stream: boolean, model: string): WireTarget {
  // One target per deployment on a dated API (the deployment is in the URL); one for all on v1.
  const deployment = endpoint.azure !== undefined && isAzureV1(endpoint.azure) ? '' : model;
  return cachedWireTarget(endpoint, `azure ${stream ? 'stream' : 'json'} ${path} ${deployment}`, () => ({
    url: azureUrl(endpoint, path, model),
    headers: requestHeaders(endpoint, stream),
    readError: readOpenAiError,
  }));
}

/** OpenAI's chat body without the fields Azure's API does not define. */
function azureChatBody(body: JsonRecord): JsonRecord {
  for (const field of AZURE_UNSUPPORTED_CHAT_FIELDS) delete body[field];
  return body;
}

export const AZURE_ROUTING: OpenAiRouting = { target: azureTarget, chatBody: azureChatBody };
