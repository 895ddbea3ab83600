export { startFakeBedrock, type FakeBedrock, type FakeBedrockOptions } from './bedrock.js';
export { startFakeAzure, type FakeAzure, type FakeAzureOptions } from './azure.js';
export { startFakeGemini, type FakeGemini } from './gemini.js';
export { startFakeVertex, type FakeVertex, VERTEX_ANTHROPIC_VERSION } from './vertex.js';
export { startFakeGoogleOAuth, type FakeGoogleOAuth, GOOGLE_CLOUD_AUDIENCE } from './google-oauth.js';
export {
  startFakeEntra,
  type FakeEntra,
  COGNITIVE_AUDIENCE,
  MANAGED_IDENTITY_HEADER,
  MANAGED_IDENTITY_PATH,
} from './entra.js';
export { entraTestTransport } from './entra-transport.js';
export {
  AWS_TEST,
  AZURE_TEST,
  GEMINI_TEST,
  GOOGLE_TEST,
  serviceAccountJson,
  writeServiceAccountFile,
} from './credentials.js';
export { makeScript, DEFAULT_SCRIPT, type CloudScript, type StopScript, type FailureScript } from './script.js';
export type { CloudFake, CloudRequest } from './kit.js';
export type { TokenLedger } from './token-ledger.js';
