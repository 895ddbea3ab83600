import { checkCatalogFile } from '../catalog/index.js';
import type { CliContext, Command } from './commands.js';

/** The running server's base URL: --url, else SWITCHYARD_URL, else this machine's PORT (default 8080). */
function serverUrl(value: string | boolean | undefined, env: NodeJS.ProcessEnv): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim().replace(/\/+$/, '');
  const fromEnv = env.SWITCHYARD_URL?.trim();
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv.replace(/\/+$/, '');
  return `http://127.0.0.1:${env.PORT?.trim() || '8080'}`;
}

interface ReloadAnswer {
  data?: { source: string; models: number; providers: number; added_models: string[]; removed_models: string[] };
  error?: { code: number; message: string; metadata?: { errors?: string[] } | null };
}

async function askReload(url: string, token: string, ctx: CliContext): Promise<number> {
  let response: Response;
  try {
    response = await fetch(`${url}/api/v1/catalog/reload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    ctx.io.err(`switchyard: cannot reach the server at ${url} (${cause}); set --url or SWITCHYARD_URL`);
    return 1;
  }
  const answer = (await response.json().catch(() => ({}))) as ReloadAnswer;
  if (response.ok && answer.data !== undefined) {
    const d = answer.data;
    ctx.io.out(`catalog reloaded from ${d.source}: ${d.models} models, ${d.providers} providers`);
    if (d.added_models.length > 0) ctx.io.out(`added: ${d.added_models.join(', ')}`);
    if (d.removed_models.length > 0) ctx.io.out(`removed: ${d.removed_models.join(', ')}`);
    return 0;
  }
  ctx.io.err(`switchyard: ${answer.error?.message ?? `the server answered ${response.status}`}`);
  for (const line of answer.error?.metadata?.errors ?? []) ctx.io.err(line);
  return 1;
}

/** `switchyard catalog check FILE` (offline) and `switchyard catalog reload` (through the running server). */
export const catalogCommands: Record<string, Command> = {
  'catalog check': {
    usage: 'switchyard catalog check FILE',
    summary: 'Validate a catalog file offline; prints every problem as file:line (exit 1 when invalid)',
    options: {},
    positionals: 1,
    run: async ({ positionals }, ctx) => {
      const file = positionals[0] ?? '';
      const checked = await checkCatalogFile(file, ctx.env);
      if (!checked.ok) {
        if (!checked.outcome.ok) for (const line of checked.outcome.errors) ctx.io.err(line);
        return 1;
      }
      for (const warning of checked.catalog.warnings) ctx.io.out(`warning: ${warning}`);
      ctx.io.out(`${file}: ok, ${checked.catalog.models.length} models, ${checked.catalog.providers.length} providers`);
      return 0;
    },
  },
  'catalog reload': {
    usage: 'switchyard catalog reload [--url URL]',
    summary:
      'Ask the running server to re-read SWITCHYARD_CONFIG (like SIGHUP); needs SWITCHYARD_MANAGEMENT_KEY set to a management key',
    options: { url: { type: 'string' } },
    run: async ({ values }, ctx) => {
      const token = ctx.env.SWITCHYARD_MANAGEMENT_KEY?.trim() ?? '';
      if (token === '') {
        ctx.io.err('switchyard: set SWITCHYARD_MANAGEMENT_KEY to a management key of the running server');
        return 2;
      }
      return askReload(serverUrl(values.url, ctx.env), token, ctx);
    },
  },
};
