/**
 * Maps a routing refusal to the gateway error the client sees:
 *   missing_model → 400, unknown_model → 404, policy → 403 (guardrail rule named),
 *   preference → 404 (no endpoints left after filtering), no_endpoints → 503.
 * `metadata.availability_code` carries OpenRouter's availability codes.
 */
import { type GatewayError, errors } from '../../errors/index.js';
import type { PreferenceRule, RouteRefusal } from './types.js';

const PREFERENCE_MESSAGES: Record<PreferenceRule, string> = {
  enforce_distillable_text: 'No requested model allows distillation (provider.enforce_distillable_text)',
  only: 'No endpoints found among the providers in provider.only',
  ignore: 'No endpoints found: every provider is in provider.ignore',
  zdr: 'No endpoints found matching your data policy (provider.zdr)',
  data_collection: 'No endpoints found matching your data policy (provider.data_collection: deny)',
  quantizations: 'No endpoints found with the requested quantizations (provider.quantizations)',
  max_price: 'No endpoints found within provider.max_price',
  require_parameters: 'No endpoints found that can handle the requested parameters (provider.require_parameters)',
  allow_fallbacks: 'No endpoints found among the providers in provider.order (allow_fallbacks: false)',
};

export function refusalToError(refusal: RouteRefusal): GatewayError {
  switch (refusal.kind) {
    case 'missing_model':
      return errors.invalidRequest('No model given: send "model" or "models"', { field: 'model' });
    case 'unknown_model':
      return errors.notFound(`Model "${refusal.model}" not found`, {
        model: refusal.model,
        availability_code: 'model_not_found',
      });
    case 'policy':
      return errors.forbidden(`Request blocked by guardrail rule ${refusal.rule}`, {
        rule: refusal.rule,
        models: [...refusal.models],
        availability_code: refusal.rule === 'zdr' ? 'privacy_restricted' : 'constraint_filtered',
      });
    case 'preference':
      return errors.notFound(PREFERENCE_MESSAGES[refusal.rule], {
        rule: `provider.${refusal.rule}`,
        models: [...refusal.models],
        availability_code:
          refusal.rule === 'zdr' || refusal.rule === 'data_collection' ? 'privacy_restricted' : 'constraint_filtered',
      });
    case 'no_endpoints':
      return errors.serviceUnavailable('No available provider for the requested model', {
        models: [...refusal.models],
        reasons: [...refusal.reasons],
        availability_code: 'no_endpoints',
      });
  }
}
