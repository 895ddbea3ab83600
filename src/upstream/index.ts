export * from './upstream-error.js';
export * from './sse-parser.js';
export * from './pools.js';
export * from './http-client.js';
export * from './error-body.js';
export { mapTransportError } from './transport-errors.js';
export * from './sse-body.js';
