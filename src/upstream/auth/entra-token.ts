import type { TokenCredential } from '@azure/identity';
import { tokenSourceAuth } from './token-source.js';
import type { UpstreamAuth } from './types.js';

export const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

export interface EntraTokenOptions {
  providerId: string;
  /** Default: the server half of DefaultAzureCredential (see below). */
  credential?: TokenCredential;
  scope?: string;
  refreshBeforeMs?: number;
  retryMs?: number;
}

/**
 * The credentials of DefaultAzureCredential that belong on a server, in its order: a client secret
 * or certificate from the standard `AZURE_*` variables, workload identity (AKS), managed identity.
 * The developer-tool credentials (Azure CLI, VS Code, …) are left out: a gateway must not pick up
 * whoever last ran `az login` on the machine.
 */
export async function serverAzureCredential(): Promise<TokenCredential> {
  // Loaded on first use: most deployments never ask Entra ID for a token.
  const { ChainedTokenCredential, EnvironmentCredential, ManagedIdentityCredential, WorkloadIdentityCredential } =
    await import('@azure/identity');
  const chain: TokenCredential[] = [new EnvironmentCredential()];
  if (process.env.AZURE_FEDERATED_TOKEN_FILE !== undefined) chain.push(new WorkloadIdentityCredential());
  const clientId = process.env.AZURE_CLIENT_ID;
  chain.push(clientId === undefined ? new ManagedIdentityCredential() : new ManagedIdentityCredential({ clientId }));
  return new ChainedTokenCredential(...chain);
}

/** Microsoft Entra ID tokens for Azure OpenAI, cached and refreshed in the background. */
export function entraTokenAuth(options: EntraTokenOptions): UpstreamAuth {
  const scope = options.scope ?? COGNITIVE_SERVICES_SCOPE;
  let credential = options.credential ?? null;
  return tokenSourceAuth({
    providerId: options.providerId,
    issuer: 'Microsoft Entra ID',
    fetch: async () => {
      credential ??= await serverAzureCredential();
      const token = await credential.getToken(scope);
      if (token === null) throw new Error('no credential in the chain produced a token');
      return {
        value: token.token,
        expiresAtMs: token.expiresOnTimestamp,
        refreshAtMs: token.refreshAfterTimestamp ?? null,
      };
    },
    secrets: () => [process.env.AZURE_CLIENT_SECRET],
    refreshBeforeMs: options.refreshBeforeMs,
    retryMs: options.retryMs,
  });
}
