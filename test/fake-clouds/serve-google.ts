/**
 * Starts the fake Gemini API, Vertex AI and Google token endpoint for a guide (docs/guides), and
 * prints the shell exports that point a catalog at them; runs until it is sent SIGTERM or SIGINT.
 * Usage: node dist/test/fake-clouds/serve-google.js > fakes.env &
 */
import { GEMINI_TEST, GOOGLE_TEST, writeServiceAccountFile } from './credentials.js';
import { startFakeGemini } from './gemini.js';
import { startFakeGoogleOAuth } from './google-oauth.js';
import { startFakeVertex } from './vertex.js';

const gemini = await startFakeGemini();
const oauth = await startFakeGoogleOAuth();
const vertex = await startFakeVertex(oauth.ledger);
const exports = {
  GEMINI_BASE_URL: `${gemini.url}/v1beta`,
  GEMINI_API_KEY: GEMINI_TEST.apiKey,
  VERTEX_BASE_URL: vertex.url,
  GOOGLE_CLOUD_PROJECT: GOOGLE_TEST.project,
  GOOGLE_APPLICATION_CREDENTIALS: writeServiceAccountFile(oauth.tokenUri),
};
process.stdout.write(
  Object.entries(exports)
    .map(([k, v]) => `export ${k}=${v}\n`)
    .join(''),
);
const stop = (): void => {
  void Promise.all([gemini.close(), vertex.close(), oauth.close()]).then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
