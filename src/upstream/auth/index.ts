export type { OutgoingRequest, UpstreamAuth } from './types.js';
export { NO_AUTH, bearerAuth, headerKeyAuth, staticAuth, xApiKeyAuth } from './static.js';
