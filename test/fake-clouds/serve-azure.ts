import { AZURE_TEST } from './credentials.js';
import { startFakeAzure } from './azure.js';

/**
 * The fake Azure OpenAI resource as a process, for docs/guides/10-azure.md (and anyone trying the
 * `kind: azure` provider without a subscription): serves the deployments of
 * examples/config.example.yaml on a loopback port and prints its URL, then its key, one per line.
 * Stops on SIGTERM or SIGINT.
 */
const fake = await startFakeAzure({
  deployments: {
    'gpt-4o': 'gpt-4o-2024-11-20',
    'gpt-4o-mini': 'gpt-4o-mini-2024-07-18',
    'text-embedding-3-small': 'text-embedding-3-small',
  },
});
process.stdout.write(`${fake.url}\n${AZURE_TEST.apiKey}\n`);
const stop = (): void => void fake.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
