export * from './sse-parser.js';
export * from './sse-body.js';
export * from './frame-batch.js';
export * from './item-stream.js';
export * from './sse-stream.js';
export * from './aws-stream.js';
