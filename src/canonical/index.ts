export * from './usage.js';
export * from './messages.js';
export * from './chat-request.js';
export * from './chat-response.js';
export * from './chunk.js';
export * from './completion.js';
