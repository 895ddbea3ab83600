import type { UpstreamAuth } from './types.js';

/**
 * A fixed credential header: Azure's `api-key`, Gemini's `x-goog-api-key`, or a bearer key
 * (a Bedrock API key is `authorization: Bearer …`). Always synchronous.
 */
export function staticHeaderAuth(name: string, value: string): UpstreamAuth {
  const lower = name.toLowerCase();
  if (!/^[a-z0-9-]+$/.test(lower)) throw new Error(`Invalid credential header name: ${name}`);
  if (value === '' || /[\r\n\0]/.test(value))
    throw new Error(`The credential for header ${lower} is empty or contains a line break`);
  const headers = Object.freeze({ [lower]: value });
  return { headersFor: () => ({ ...headers }) };
}

/** `authorization: Bearer <key>`: how Bedrock API keys (and other bearer keys) are sent. */
export function bearerKeyAuth(key: string): UpstreamAuth {
  return staticHeaderAuth('authorization', `Bearer ${key}`);
}
