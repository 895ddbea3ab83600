import type { IncomingHttpHeaders } from 'node:http';

/**
 * Body fields the Messages API refuses unless the request names their beta in `anthropic-beta`
 * (matched by the beta's name without its date, as the API's betas are versioned by date).
 */
const BETA_FIELDS: Readonly<Record<string, string>> = {
  context_management: 'context-management-',
  mcp_servers: 'mcp-client-',
  container: 'code-execution-',
};

/** Anthropic's 400 message for a beta field sent without its beta; null when the body is allowed. */
export function refusedWithoutBeta(body: Record<string, unknown>, headers: IncomingHttpHeaders): string | null {
  const raw = headers['anthropic-beta'];
  const betas = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',').map((b) => b.trim());
  for (const [field, beta] of Object.entries(BETA_FIELDS))
    if (body[field] !== undefined && !betas.some((b) => b.startsWith(beta)))
      return `${field}: Extra inputs are not permitted`;
  return null;
}
