/**
 * GET /models/{author}/{slug}/endpoints: one model and its endpoints in OpenRouter's
 * ListEndpointsResponse shape, `{data:{id, name, created, description, architecture, endpoints}}`.
 * Lists the endpoints whose provider is available, cheapest first (the order default routing
 * tries them in). Figures the gateway does not measure over a window (uptime, percentile latency)
 * are null; `status` is 0 for an endpoint routing will try and -1 while its breaker is open.
 */
import { type WirePricing, tokenPrice, wirePricing } from './model-wire.js';
import type { Catalog, CatalogEndpoint, CatalogModel, CatalogProvider } from './types.js';

export interface WireEndpoint {
  name: string;
  model_id: string;
  model_name: string;
  context_length: number;
  pricing: WirePricing;
  provider_name: string;
  tag: string;
  quantization: string | null;
  max_completion_tokens: number | null;
  max_prompt_tokens: number | null;
  supported_parameters: string[];
  status: number;
  uptime_last_5m: number | null;
  uptime_last_30m: number | null;
  uptime_last_1d: number | null;
  latency_last_30m: null;
  throughput_last_30m: null;
  supports_implicit_caching: boolean;
  supports_tool_choice: { auto: boolean; none: boolean; required: boolean; function: boolean };
  supports_voice_cloning: boolean;
}

export interface EndpointsResponse {
  data: {
    id: string;
    name: string;
    created: number;
    description: string;
    architecture: {
      input_modalities: string[];
      output_modalities: string[];
      modality: string | null;
      tokenizer: string | null;
      instruct_type: string | null;
    };
    endpoints: WireEndpoint[];
  };
}

export interface EndpointsOptions {
  /** Whether routing currently tries the endpoint (its breaker is not open); default: always. */
  readonly isHealthy?: (endpointKey: string) => boolean;
}

function wireEndpoint(
  model: CatalogModel,
  endpoint: CatalogEndpoint,
  provider: CatalogProvider,
  healthy: boolean,
): WireEndpoint {
  const toolChoice = endpoint.supportedParameters.includes('tool_choice');
  return {
    name: `${provider.name} | ${model.slug}`,
    model_id: model.slug,
    model_name: model.name,
    context_length: endpoint.contextLength,
    pricing: wirePricing(endpoint.pricing),
    provider_name: provider.name,
    tag: provider.id,
    quantization: endpoint.quantization,
    max_completion_tokens: endpoint.maxCompletionTokens,
    max_prompt_tokens: null,
    supported_parameters: [...endpoint.supportedParameters],
    status: healthy ? 0 : -1,
    uptime_last_5m: null,
    uptime_last_30m: null,
    uptime_last_1d: null,
    latency_last_30m: null,
    throughput_last_30m: null,
    supports_implicit_caching: false,
    supports_tool_choice: { auto: toolChoice, none: toolChoice, required: toolChoice, function: toolChoice },
    supports_voice_cloning: false,
  };
}

/** The endpoints listing of `model`, or undefined when the catalog has no such model. */
export function toEndpointsResponse(
  catalog: Catalog,
  slug: string,
  options: EndpointsOptions = {},
): EndpointsResponse | undefined {
  const model = catalog.findModel(slug);
  if (model === undefined) return undefined;
  const endpoints: WireEndpoint[] = [];
  const ordered = [...model.endpoints].sort((a, b) => tokenPrice(a) - tokenPrice(b));
  for (const endpoint of ordered) {
    const provider = catalog.findProvider(endpoint.providerId);
    if (provider?.available !== true) continue;
    endpoints.push(wireEndpoint(model, endpoint, provider, options.isHealthy?.(endpoint.key) ?? true));
  }
  return {
    data: {
      id: model.slug,
      name: model.name,
      created: model.created,
      description: model.description ?? '',
      architecture: {
        input_modalities: [...model.inputModalities],
        output_modalities: [...model.outputModalities],
        modality: `${model.inputModalities.join('+')}->${model.outputModalities.join('+')}`,
        tokenizer: model.tokenizer,
        instruct_type: model.instructType,
      },
      endpoints,
    },
  };
}
