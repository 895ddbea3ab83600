export type {
  HealthView,
  MaxPrice,
  Partition,
  Percentiles,
  PolicyRule,
  PreferenceRule,
  ProviderPreferences,
  RouteCandidate,
  RouteRefusal,
  RouteResult,
  RoutingPolicy,
  SortBy,
} from './types.js';
export {
  DEFAULT_PREFERENCES,
  type PreferenceError,
  type PreferencesValidation,
  validateProviderPreferences,
} from './validate-preferences.js';
export {
  type BreakerState,
  EndpointHealth,
  type EndpointHealthSnapshot,
  type HealthOptions,
  NO_HEALTH_DATA,
} from './health.js';
export { OPEN_POLICY, type PlanRouteOptions, planRoute } from './plan-route.js';
export { refusalToError } from './refusal-error.js';
export { providerMatches } from './stages.js';
