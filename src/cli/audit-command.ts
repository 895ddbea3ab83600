import { presentAuditRecord } from '../http/presenters/audit.js';
import type { Services } from '../services.js';
import type { CliContext, Command } from './commands.js';

/** What the audit command borrows from the command table (passed in, so there is no import cycle). */
export interface AuditCommandDeps {
  withServices<T>(ctx: CliContext, fn: (services: Services) => Promise<T>): Promise<T>;
  fail(message: string): Error;
}

const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** `switchyard audit`: the audit log, newest first, one line per record (or JSON lines). */
export function auditCommand(deps: AuditCommandDeps): Record<string, Command> {
  return {
    audit: {
      usage:
        'switchyard audit [--action A] [--target-type T] [--target-id ID] [--actor MEMBER|EMAIL|HASH|cli] ' +
        '[--since ISO] [--until ISO] [--limit N] [--cursor C] [--json]',
      summary:
        'Print the audit log of management writes (HTTP and CLI), newest first; --json prints one JSON record a line',
      options: {
        action: { type: 'string' },
        'target-type': { type: 'string' },
        'target-id': { type: 'string' },
        actor: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
        json: { type: 'boolean' },
      },
      run: ({ values }, ctx) =>
        deps.withServices(ctx, async (services) => {
          const limitText = text(values.limit) ?? '50';
          const limit = Number(limitText);
          if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
            throw deps.fail(`--limit: "${limitText}" is not a whole number from 1 to 10000`);
          const page = await services.auditLog.list(
            {
              action: text(values.action),
              targetType: text(values['target-type']),
              targetId: text(values['target-id']),
              actor: text(values.actor),
              since: text(values.since),
              until: text(values.until),
            },
            { cursor: text(values.cursor), limit },
          );
          for (const record of page.rows) {
            if (values.json === true) {
              ctx.io.out(JSON.stringify(presentAuditRecord(record)));
              continue;
            }
            const a = record.actor;
            const who = a.kind === 'key' ? `${a.email ?? a.memberId ?? '-'} (key ${a.keyHash ?? '-'})` : a.kind;
            const changes = record.changes === null ? '' : `  ${JSON.stringify(record.changes)}`;
            ctx.io.out(`${record.at}  ${who}  ${record.action}  ${record.targetType}:${record.targetId}${changes}`);
          }
          if (page.next !== null) ctx.io.out(`more: --cursor ${page.next}`);
          return 0;
        }),
    },
  };
}
