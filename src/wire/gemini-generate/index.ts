/** The Gemini `generateContent` wire (the Gemini API and Vertex AI's Google models): upstream only. */
export { generateContentBody } from './request.js';
export { generateContentResponse } from './response.js';
export { geminiChunks, type GeminiStreamOptions } from './stream.js';
export { readGoogleError, googleErrorStatus } from './error-body.js';
export { batchEmbedBody, batchEmbedResponse } from './embeddings.js';
export { THOUGHT_SIGNATURE_FORMAT, geminiUsage } from './parts.js';
export {
  predictBatchSize,
  predictBody,
  predictInputs,
  predictVectors,
  type PredictVectors,
} from './predict-embeddings.js';
