export type {
  Catalog,
  CatalogEndpoint,
  CatalogModel,
  CatalogProvider,
  DataCollection,
  EndpointPricing,
  ModelService,
  ProviderKind,
  ProviderTimeouts,
  Quantization,
  ZdrGroup,
  ZdrVendor,
  ZdrVendorConfig,
} from './types.js';
export {
  DEFAULT_SUPPORTED_PARAMETERS,
  DEFAULT_ZDR_VENDORS,
  KNOWN_PARAMETERS,
  QUANTIZATIONS,
  ZDR_VENDORS,
} from './constants.js';
export type { Env } from './build-catalog.js';
export { DEFAULT_CATALOG_CONFIG, defaultCatalog } from './default-catalog.js';
export {
  CatalogConfigError,
  type CatalogIssue,
  type CatalogLoadResult,
  type LoadCatalogOptions,
  type ParseOptions,
  catalogFromObject,
  loadCatalog,
  parseCatalogText,
} from './load-catalog.js';
export { type ModelsQuery, type ModelsResponse, toModelsResponse } from './models-response.js';
export { type WireModel, type WireOptions, type WirePricing, toWireModel, topEndpoint } from './model-wire.js';
export { type ProvidersResponse, type WireProvider, toProvidersResponse } from './providers-response.js';
export { decimalString } from './decimal.js';
export { type EndpointsResponse, type WireEndpoint, toEndpointsResponse } from './endpoints-response.js';
export { type CatalogChange, type CatalogListener, type CatalogSource, CatalogHolder, diffCatalogs } from './holder.js';
export { type ReloadOutcome, CatalogReloader, checkCatalogFile } from './reloader.js';
export { requireServes } from './serves.js';
