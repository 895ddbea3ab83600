import { startFakeBedrock } from './bedrock.js';

/**
 * The fake Bedrock as a process of its own, for the Bedrock guide's examples (docs/guides,
 * run by CI): prints its URL on the first line, serves until SIGTERM or SIGINT. It accepts the
 * test credentials of credentials.ts only (SigV4-signed, or the test Bedrock API key).
 */
const fake = await startFakeBedrock();
process.stdout.write(`${fake.url}\n`);
const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
