export { GatewayError, isGatewayError, type ErrorMetadata } from './gateway-error.js';
export { errors } from './codes.js';
export { renderError, type ErrorEnvelope } from './render.js';
export {
  anthropicErrorType,
  renderAnthropicError,
  type AnthropicErrorEnvelope,
  type AnthropicErrorType,
} from './anthropic.js';
