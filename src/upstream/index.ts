export * from './upstream-error.js';
export * from './pools.js';
export * from './http-client.js';
export { mapTransportError } from './transport-errors.js';
export * from './framing/index.js';
export * from './auth/index.js';
