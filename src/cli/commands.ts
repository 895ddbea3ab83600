import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config/env.js';
import { systemClock } from '../domain/common/clock.js';
import { isGatewayError } from '../errors/index.js';
import { serve } from '../main.js';
import { createServices, type Services } from '../services.js';
import { bootstrap } from '../bootstrap.js';
import { openStore } from '../store/index.js';
import { openChangeFeed } from '../store/open-change-feed.js';
import { defaultCatalog } from '../catalog/index.js';
import { presetCommands } from './presets-commands.js';
import { catalogCommands } from './catalog-commands.js';
import { auditCommand } from './audit-command.js';
import { backupCommands } from './backup-commands.js';
import { asCli } from '../domain/audit/record.js';

export class CliError extends Error {}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CliContext {
  env: NodeJS.ProcessEnv;
  io: CliIo;
  loadConfig(env: NodeJS.ProcessEnv): ServerConfig;
  /** Asks the operator a yes/no question (a terminal only); absent when nobody can answer. */
  confirm?(question: string): Promise<boolean>;
}

export interface Command {
  usage: string;
  summary: string;
  /** More on what the command does, shown by `switchyard <command> --help`. */
  details?: string;
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  positionals?: number;
  run(
    args: { values: Record<string, string | boolean | undefined>; positionals: string[] },
    ctx: CliContext,
  ): Promise<number | null>;
}

async function withServices<T>(ctx: CliContext, fn: (services: Services) => Promise<T>): Promise<T> {
  const config = ctx.loadConfig(ctx.env);
  const store = openStore(config.databaseUrl, { checkpointWorker: false });
  // Key writes are announced to running replicas (PostgreSQL NOTIFY; SQLite: its data_version).
  const changeFeed = openChangeFeed({
    databaseUrl: config.databaseUrl,
    externalChangeMarker: () => store.externalChangeMarker(),
  });
  try {
    await store.migrate();
    await changeFeed.start();
    const services = createServices({
      store,
      clock: systemClock,
      keyCacheRevalidateMs: 0,
      catalog: defaultCatalog(),
      changeFeed,
    });
    try {
      await bootstrap(services, {
        managementKey: config.managementKey,
        ownerEmail: config.ownerEmail,
        createFirstKey: false,
      });
      return await fn(services);
    } finally {
      await services.close();
    }
  } catch (error) {
    if (isGatewayError(error)) throw new CliError(error.message);
    throw error;
  } finally {
    await changeFeed.close();
    await store.close();
  }
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new CliError(`--${name} is required`);
  return v.trim();
}

async function findMember(services: Services, ref: string | undefined) {
  if (ref === undefined) {
    const { rows } = await services.members.list({ offset: 0, limit: 100 });
    const owner = rows.find((m) => m.role === 'org:admin');
    if (owner === undefined) throw new CliError('no admin member exists; pass --member');
    return owner;
  }
  const member = ref.includes('@')
    ? await services.store.members.findByEmail(ref.toLowerCase())
    : await services.store.members.findById(ref);
  if (member === null) throw new CliError(`no member ${ref}`);
  return member;
}

const commands: Record<string, Command> = {
  serve: {
    usage: 'switchyard serve',
    summary:
      'Start the gateway (env: PORT, HOST, SWITCHYARD_DATABASE_URL, SWITCHYARD_MANAGEMENT_KEY, SWITCHYARD_CONFIG)',
    options: {},
    run: async (_args, ctx) => {
      await serve(ctx.env);
      return null;
    },
  },
  migrate: {
    usage: 'switchyard migrate',
    summary: 'Apply pending database migrations and exit',
    options: {},
    run: async (_args, ctx) => {
      const config = ctx.loadConfig(ctx.env);
      const store = openStore(config.databaseUrl, { checkpointWorker: false });
      try {
        const applied = await store.migrate();
        ctx.io.out(applied.length === 0 ? 'database is up to date' : `applied: ${applied.join(', ')}`);
      } finally {
        await store.close();
      }
      return 0;
    },
  },
  'keys create-management': {
    usage: 'switchyard keys create-management --name NAME [--member USER_ID|EMAIL]',
    summary: 'Create a management key for a member (default: the first admin) and print its token once',
    options: { name: { type: 'string' }, member: { type: 'string' } },
    run: ({ values }, ctx) =>
      withServices(ctx, async (services) => {
        const name = required(values, 'name');
        const member = await findMember(services, typeof values.member === 'string' ? values.member : undefined);
        const issued = await services.keys.createManagementKey({ name, memberId: member.id }, asCli);
        ctx.io.out(`hash:  ${issued.record.hash}`);
        ctx.io.out(`token: ${issued.token}`);
        ctx.io.out('The token is shown only this once.');
        return 0;
      }),
  },
  'keys rotate-management': {
    usage: 'switchyard keys rotate-management HASH',
    summary: 'Issue a new token for a management key; the old token stops working at once',
    options: {},
    positionals: 1,
    run: ({ positionals }, ctx) =>
      withServices(ctx, async (services) => {
        const hash = positionals[0];
        if (hash === undefined) throw new CliError('the key hash is required');
        const issued = await services.keys.rotate(hash, 'management', asCli);
        ctx.io.out(`hash:  ${issued.record.hash}`);
        ctx.io.out(`token: ${issued.token}`);
        ctx.io.out('The token is shown only this once; the previous token no longer works.');
        return 0;
      }),
  },
  'keys list': {
    usage: 'switchyard keys list --management',
    summary: 'List management keys (hash, name, member, created)',
    options: { management: { type: 'boolean' } },
    run: ({ values }, ctx) =>
      withServices(ctx, async (services) => {
        if (values.management !== true)
          throw new CliError('only --management is supported; list API keys with GET /api/v1/keys');
        for (const k of await services.store.keys.listManagement()) {
          ctx.io.out(
            `${k.hash}  ${k.label}  ${k.disabled ? 'disabled' : 'active'}  ${k.creatorUserId}  ${k.createdAt}  ${k.name}`,
          );
        }
        return 0;
      }),
  },
  'members add': {
    usage: 'switchyard members add --email EMAIL [--name "First Last"] [--admin]',
    summary: 'Add an organization member and print its user id',
    options: { email: { type: 'string' }, name: { type: 'string' }, admin: { type: 'boolean' } },
    run: ({ values }, ctx) =>
      withServices(ctx, async (services) => {
        const email = required(values, 'email');
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
          throw new CliError(`--email: "${email}" is not an email address`);
        const [first, ...rest] = typeof values.name === 'string' ? values.name.trim().split(/\s+/) : [];
        const member = await services.members.add(
          {
            email,
            firstName: first ?? null,
            lastName: rest.length > 0 ? rest.join(' ') : null,
            role: values.admin === true ? 'org:admin' : 'org:member',
          },
          asCli,
        );
        ctx.io.out(member.id);
        return 0;
      }),
  },
  ...presetCommands({ withServices, findMember, fail: (message) => new CliError(message) }),
  ...catalogCommands,
  ...auditCommand({ withServices, fail: (message) => new CliError(message) }),
  ...backupCommands({ fail: (message) => new CliError(message) }),
};

function help(io: CliIo, group?: string): void {
  const shown = Object.entries(commands).filter(([name]) => group === undefined || name.startsWith(`${group} `));
  io.out(`Usage: switchyard ${group ?? '<command>'} ${group === undefined ? '' : '<command> '}[options]\n\nCommands:`);
  for (const [, c] of shown) io.out(`  ${c.usage}\n      ${c.summary}`);
  io.out('\nRun "switchyard <command> --help" for one command.');
}

/** Groups of two-word commands (`keys`, `members`, `presets`, `catalog`). */
function isGroup(name: string): boolean {
  return Object.keys(commands).some((c) => c.startsWith(`${name} `));
}

/** Runs one CLI invocation; returns the exit code, or null when the command keeps running (serve). */
export async function runCommand(argv: string[], ctx: CliContext): Promise<number | null> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    help(ctx.io);
    return argv.length === 0 ? 2 : 0;
  }
  const first = argv[0] ?? '';
  // `switchyard keys --help`, `switchyard keys`: the group's commands.
  if (
    commands[first] === undefined &&
    isGroup(first) &&
    (argv.length === 1 || ['--help', '-h', 'help'].includes(argv[1] ?? ''))
  ) {
    help(ctx.io, first);
    return argv.length === 1 ? 2 : 0;
  }
  const two = `${argv[0]} ${argv[1] ?? ''}`;
  const name = commands[two] !== undefined ? two : (argv[0] ?? '');
  const command = commands[name];
  if (command === undefined)
    throw new CliError(`unknown command "${argv.slice(0, 2).join(' ')}"; see switchyard --help`);
  const rest = argv.slice(name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) {
    ctx.io.out(`Usage: ${command.usage}\n\n${command.summary}`);
    if (command.details !== undefined) ctx.io.out(`\n${command.details}`);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)}\nUsage: ${command.usage}`);
  }
  if (parsed.positionals.length !== (command.positionals ?? 0)) {
    throw new CliError(`wrong number of arguments\nUsage: ${command.usage}`);
  }
  return command.run({ values: parsed.values, positionals: parsed.positionals }, ctx);
}
