import { useState } from 'preact/hooks';
import { get } from '../api/client.js';
import { loadDirectory, type Directory } from '../api/directory.js';
import type { AuditRecord } from '../api/types.js';
import { useLoad } from '../components/hooks.js';
import { CursorPager, useCursorTrail } from '../components/CursorPager.js';
import { when } from '../components/format.js';
import { LoadStatus, TableWrap, Truncated } from '../components/ui.js';
import { navigate, type Route } from '../router.js';

const FILTERS = ['actor', 'action', 'target_type', 'target_id', 'since', 'until'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const PAGE_SIZE = 50;
const ACTIONS = [
  'key.create',
  'key.update',
  'key.rotate',
  'key.delete',
  'member.create',
  'workspace.create',
  'workspace.update',
  'workspace.delete',
  'workspace.members.add',
  'workspace.members.remove',
  'guardrail.create',
  'guardrail.update',
  'guardrail.delete',
  'guardrail.keys.assign',
  'guardrail.keys.unassign',
  'guardrail.members.assign',
  'guardrail.members.unassign',
  'preset.version.create',
  'preset.update',
];
const TARGET_TYPES = ['key', 'member', 'workspace', 'guardrail', 'preset'];

function filtersOf(route: Route): Filters {
  const f = {} as Filters;
  for (const k of FILTERS) f[k] = route.query.get(k) ?? '';
  return f;
}

/** A datetime-local value is read as UTC (the log's times are UTC). */
const utc = (local: string) => (local === '' ? undefined : new Date(`${local}Z`).toISOString());

function Target({ r, dir }: { r: AuditRecord; dir: Directory | null }) {
  const named = dir?.find(r.target.type, r.target.id) ?? null;
  const label = named?.name ?? r.target.id;
  return (
    <>
      <span class="muted small">{r.target.type} </span>
      {named?.href === null || named === null ? (
        <Truncated text={label} class="mono" />
      ) : (
        <a href={named.href} title={label}>
          <Truncated text={label} />
        </a>
      )}
    </>
  );
}

function actorOf(r: AuditRecord, dir: Directory | null): string {
  if (r.actor.email !== null) return r.actor.email;
  if (r.actor.member_id !== null) return dir?.find('member', r.actor.member_id)?.name ?? r.actor.member_id;
  if (r.actor.key_hash !== null) return dir?.find('key', r.actor.key_hash)?.name ?? `key ${r.actor.key_hash}`;
  return r.actor.type;
}

/** What changed, as `field: value` lines; ids inside are left as they are (they name what moved). */
function Changes({ changes }: { changes: Record<string, unknown> | null }) {
  if (changes === null) return <span class="muted">—</span>;
  return (
    <ul class="plain small">
      {Object.entries(changes).map(([k, v]) => (
        <li key={k}>
          <span class="mono">{k}</span>: <Truncated text={JSON.stringify(v)} class="mono" />
        </li>
      ))}
    </ul>
  );
}

/** The audit log: who changed what, newest first; filters in the route, paged by the server's cursor. */
export function AuditLog({ route }: { route: Route }) {
  const f = filtersOf(route);
  const filterKey = FILTERS.map((k) => f[k]).join('|');
  const [draft, setDraft] = useState<Filters>(f);
  const trail = useCursorTrail(filterKey);
  const cursor = trail.cursor;
  const page = useLoad(
    (signal) =>
      get<{ data: AuditRecord[]; next_cursor: string | null }>('/audit-log', {
        query: {
          actor: f.actor,
          action: f.action,
          target_type: f.target_type,
          target_id: f.target_id,
          since: utc(f.since),
          until: utc(f.until),
          limit: PAGE_SIZE,
          cursor: cursor ?? undefined,
        },
        signal,
      }),
    [filterKey, cursor],
  );
  const dir = useLoad((signal) => loadDirectory(signal), []);
  const set = (k: keyof Filters, v: string) => setDraft({ ...draft, [k]: v });
  const text = (k: keyof Filters, label: string, extra: Record<string, string> = {}) => (
    <label>
      {label}
      <input value={draft[k]} onInput={(e) => set(k, e.currentTarget.value)} {...extra} />
    </label>
  );

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form
        class="panel row"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          navigate('/audit-log', { ...draft });
        }}
      >
        {text('actor', 'Actor', { placeholder: 'email, member id, key hash, cli' })}
        {text('action', 'Action', { list: 'audit-actions' })}
        <datalist id="audit-actions">
          {ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <label>
          Target type
          <select value={draft.target_type} onChange={(e) => set('target_type', e.currentTarget.value)}>
            <option value="">any</option>
            {TARGET_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        {text('target_id', 'Target id')}
        {text('since', 'From (UTC)', { type: 'datetime-local' })}
        {text('until', 'To (UTC)', { type: 'datetime-local' })}
        <button type="submit" class="primary">
          Apply filters
        </button>
        <a href="#/audit-log" onClick={() => setDraft(filtersOf({ ...route, query: new URLSearchParams() }))}>
          Clear filters
        </a>
      </form>
      <LoadStatus state={page} what="the audit log" />
      <TableWrap label="Management changes">
        <table>
          <caption class="skip">Management changes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody aria-busy={page.loading}>
            {(page.data?.data ?? []).map((r) => (
              <tr key={r.id} data-audit-id={r.id}>
                <td class="small">{when(r.created_at)}</td>
                <td>
                  <Truncated text={actorOf(r, dir.data)} />
                  <div class="muted small">{r.actor.type}</div>
                </td>
                <td class="mono small nowrap">{r.action}</td>
                <td>
                  <Target r={r} dir={dir.data} />
                </td>
                <td>
                  <Changes changes={r.changes} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {page.data !== null && page.data.data.length === 0 ? <p>No change matches these filters.</p> : null}
      <CursorPager trail={trail} next={page.data === null ? undefined : page.data.next_cursor} />
    </section>
  );
}
