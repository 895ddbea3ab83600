import { readFileSync } from 'node:fs';
import { loadCatalog } from '../catalog/index.js';
import { createPresetService } from '../domain/presets/index.js';
import { presentResolvedPreset } from '../http/presenters/presets.js';
import type { Services } from '../services.js';
import type { CliContext, Command } from './commands.js';
import { asCli } from '../domain/audit/record.js';

/** What the preset commands borrow from the command table (passed in, so there is no import cycle). */
export interface PresetCommandDeps {
  withServices<T>(ctx: CliContext, fn: (services: Services) => Promise<T>): Promise<T>;
  findMember(services: Services, ref: string | undefined): Promise<{ id: string }>;
  fail(message: string): Error;
}

const workspaceOption = { workspace: { type: 'string' } } as const;
const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * The preset service over the CLI's store, checking models against the configured catalog
 * (SWITCHYARD_CONFIG), and announcing writes on the change feed (other processes' caches drop them).
 */
async function presetService(services: Services, ctx: CliContext) {
  const config = ctx.loadConfig(ctx.env);
  const { catalog } = await loadCatalog({ path: config.configPath ?? undefined, env: ctx.env });
  return createPresetService({
    presets: services.store.presets,
    workspaces: services.store.workspaces,
    catalog,
    clock: services.clock,
    transaction: (fn) => services.store.withTransaction(fn),
    revalidateAfterMs: 0,
    changes: services.changeFeed,
  });
}

async function workspaceId(services: Services, ref: string | undefined, deps: PresetCommandDeps): Promise<string> {
  const workspace =
    ref === undefined
      ? await services.store.workspaces.findDefault()
      : await services.store.workspaces.findByIdOrSlug(ref);
  if (workspace === null) throw deps.fail(`no workspace ${ref ?? '(default)'}`);
  return workspace.id;
}

/** `switchyard presets list|show|create`. */
export function presetCommands(deps: PresetCommandDeps): Record<string, Command> {
  return {
    'presets list': {
      usage: 'switchyard presets list [--workspace ID|SLUG]',
      summary:
        'List the presets of a workspace (default: the default workspace): slug, designated version, status, name',
      options: workspaceOption,
      run: ({ values }, ctx) =>
        deps.withServices(ctx, async (services) => {
          const ws = await workspaceId(services, text(values.workspace), deps);
          for (let offset = 0; ; offset += 100) {
            const { rows } = await services.store.presets.list(ws, { offset, limit: 100 });
            for (const p of rows) {
              const designated =
                p.designatedVersionId === null
                  ? null
                  : await services.store.presets.findVersionById(p.designatedVersionId);
              ctx.io.out(`${p.slug}  v${designated?.version ?? '-'}  ${p.status}  ${p.updatedAt}  ${p.name}`);
            }
            if (rows.length < 100) return 0;
          }
        }),
    },
    'presets show': {
      usage: 'switchyard presets show SLUG [--workspace ID|SLUG]',
      summary: 'Print a preset with its designated version as JSON (the body of GET /api/v1/presets/{slug})',
      options: workspaceOption,
      positionals: 1,
      run: ({ values, positionals }, ctx) =>
        deps.withServices(ctx, async (services) => {
          const presets = await presetService(services, ctx);
          const found = await presets.get(
            await workspaceId(services, text(values.workspace), deps),
            positionals[0] ?? '',
          );
          ctx.io.out(JSON.stringify(presentResolvedPreset(found), null, 2));
          return 0;
        }),
    },
    'presets create': {
      usage: 'switchyard presets create SLUG --from-file FILE.json [--workspace ID|SLUG] [--member USER_ID|EMAIL]',
      summary:
        'Create a preset, or a new designated version of it, from a chat-completions body in a JSON file (its preset fields and system message are kept)',
      options: { ...workspaceOption, 'from-file': { type: 'string' }, member: { type: 'string' } },
      positionals: 1,
      run: ({ values, positionals }, ctx) =>
        deps.withServices(ctx, async (services) => {
          const file = text(values['from-file']);
          if (file === undefined) throw deps.fail('--from-file is required');
          let body: unknown;
          try {
            body = JSON.parse(readFileSync(file, 'utf8'));
          } catch (error) {
            throw deps.fail(
              `--from-file: cannot read JSON from ${file}: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
          if (typeof body !== 'object' || body === null || Array.isArray(body))
            throw deps.fail('--from-file: the file must hold a JSON object');
          const member = await deps.findMember(services, text(values.member));
          const presets = await presetService(services, ctx);
          const saved = await presets.saveVersion({
            workspaceId: await workspaceId(services, text(values.workspace), deps),
            slug: positionals[0] ?? '',
            body: body as Record<string, unknown>,
            creatorUserId: member.id,
            ctx: asCli,
          });
          ctx.io.out(`${saved.preset.slug}  v${saved.version?.version ?? '-'}  ${saved.preset.id}`);
          return 0;
        }),
    },
  };
}
