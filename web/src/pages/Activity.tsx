import { get } from '../api/client.js';
import type { GenerationPage } from '../api/analytics.js';
import { listKeys, listModels, listProviders, listWorkspaces } from '../api/resources.js';
import { useLoad } from '../components/hooks.js';
import { CursorPager, useCursorTrail } from '../components/CursorPager.js';
import { ms, num, usd, when } from '../components/format.js';
import { Badge, LoadStatus, TableWrap } from '../components/ui.js';
import { href, navigate, type Route } from '../router.js';
import { GenerationDetail } from './GenerationDetail.js';
import { ActivityExport } from './ActivityExport.js';

const FILTERS = [
  'range',
  'from',
  'to',
  'key',
  'model',
  'provider',
  'surface',
  'status',
  'http_status',
  'flagged',
] as const;
const SURFACES = ['chat', 'completions', 'messages', 'responses', 'embeddings'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const RANGES: Record<string, number> = { '1h': 3600e3, '24h': 86400e3, '7d': 7 * 86400e3, '30d': 30 * 86400e3 };
const PAGE_SIZE = 50;

function filtersOf(route: Route): Filters {
  const f = {} as Filters;
  for (const k of FILTERS) f[k] = route.query.get(k) ?? '';
  return f;
}

function queryOf(f: Filters, cursor: string | null): Record<string, string | number | undefined> {
  const q: Record<string, string | number | undefined> = { limit: PAGE_SIZE, cursor: cursor ?? undefined };
  const span = RANGES[f.range];
  if (span !== undefined) q['from'] = new Date(Date.now() - span).toISOString();
  if (f.range === 'custom') {
    if (f.from !== '') q['from'] = new Date(`${f.from}Z`).toISOString();
    if (f.to !== '') q['to'] = new Date(`${f.to}Z`).toISOString();
  }
  if (f.key !== '') q['key_hash'] = f.key;
  if (f.model !== '') q['model'] = f.model;
  if (f.provider !== '') q['provider'] = f.provider;
  if (f.surface !== '') q['api_surface'] = f.surface;
  if (f.status !== '') q['status'] = f.status;
  if (f.http_status !== '') q['http_status'] = f.http_status;
  if (f.flagged !== '') q['flagged'] = f.flagged;
  return q;
}

const STATUS_TONE = { success: 'ok', error: 'bad', cancelled: 'warn', refused: 'bad' } as const;
/** The statuses a model call is refused with (docs/metering.md, "Refused calls"). */
const REFUSAL_STATUSES = ['400', '402', '403', '404', '413', '429', '503'];

/** Activity: the generation log, filtered, paged by cursor; a row opens the generation's detail. */
export function Activity({ route }: { route: Route }) {
  const detailId = route.segments[1];
  const f = filtersOf(route);
  const filterKey = FILTERS.map((k) => f[k]).join('|');
  const trail = useCursorTrail(filterKey);
  const cursor = trail.cursor;
  const page = useLoad(
    (signal) => get<GenerationPage>('/generations', { query: queryOf(f, cursor), signal }),
    [filterKey, cursor],
  );
  const pickers = useLoad(async (signal) => {
    const [models, providers, workspaces] = await Promise.all([
      listModels(signal),
      listProviders(signal),
      listWorkspaces(signal),
    ]);
    const keys = (await Promise.all(workspaces.map((w) => listKeys(w.id, signal)))).flat();
    return { models, providers, keys };
  }, []);

  if (detailId !== undefined) return <GenerationDetail id={detailId} back={href('/activity', { ...f })} />;

  const set = (k: keyof Filters, v: string) => navigate('/activity', { ...f, [k]: v });
  const select = (k: keyof Filters, label: string, options: { value: string; label: string }[]) => (
    <label>
      {label}
      <select value={f[k]} onChange={(e) => set(k, e.currentTarget.value)}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <form class="panel row" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Time range
          <select value={f.range} onChange={(e) => set('range', e.currentTarget.value)}>
            <option value="">all time</option>
            <option value="1h">last hour</option>
            <option value="24h">last 24 hours</option>
            <option value="7d">last 7 days</option>
            <option value="30d">last 30 days</option>
            <option value="custom">custom (UTC)</option>
          </select>
        </label>
        {f.range === 'custom' ? (
          <>
            <label>
              From
              <input type="datetime-local" value={f.from} onChange={(e) => set('from', e.currentTarget.value)} />
            </label>
            <label>
              To
              <input type="datetime-local" value={f.to} onChange={(e) => set('to', e.currentTarget.value)} />
            </label>
          </>
        ) : null}
        {select(
          'key',
          'Key',
          (pickers.data?.keys ?? []).map((k) => ({ value: k.hash, label: `${k.name} (${k.label})` })),
        )}
        {select(
          'model',
          'Model',
          (pickers.data?.models ?? []).map((m) => ({ value: m.id, label: m.id })),
        )}
        {select(
          'provider',
          'Provider',
          (pickers.data?.providers ?? []).map((p) => ({ value: p.slug, label: p.name })),
        )}
        {select(
          'surface',
          'API surface',
          SURFACES.map((s) => ({ value: s, label: s })),
        )}
        {select('status', 'Status', [
          { value: 'success', label: 'success' },
          { value: 'error', label: 'error (failed or refused)' },
          { value: 'refused', label: 'refused' },
          { value: 'cancelled', label: 'cancelled' },
        ])}
        {select(
          'http_status',
          'Refused with',
          REFUSAL_STATUSES.map((s) => ({ value: s, label: s })),
        )}
        {select('flagged', 'Flagged', [
          { value: 'true', label: 'flagged only' },
          { value: 'false', label: 'not flagged' },
        ])}
        <a href="#/activity">Clear filters</a>
        <ActivityExport query={queryOf(f, null)} />
      </form>
      <LoadStatus state={page} what="generations" />
      <LoadStatus state={pickers} what="the filters' choices" />
      <TableWrap label="Generations">
        <table aria-describedby="activity-hint">
          <thead>
            <tr>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Key</th>
              <th scope="col">Model</th>
              <th scope="col">Provider</th>
              <th scope="col">API surface</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Tokens in / out
              </th>
              <th scope="col" class="num">
                Cost
              </th>
              <th scope="col" class="num">
                Latency
              </th>
              <th scope="col" class="num">
                First token
              </th>
              <th scope="col" class="num">
                Fallbacks
              </th>
              <th scope="col">Flags</th>
            </tr>
          </thead>
          <tbody aria-busy={page.loading}>
            {(page.data?.data ?? []).map((g) => (
              <tr key={g.id} class="clickable" onClick={() => navigate(`/activity/${g.id}`, { ...f })}>
                <td class="small">
                  <a href={href(`/activity/${g.id}`, { ...f })}>{when(g.created_at)}</a>
                </td>
                <td>{g.key_name ?? <span class="muted">deleted key</span>}</td>
                <td class="mono small">{g.model}</td>
                <td>{g.provider_name ?? '—'}</td>
                <td>{g.api_surface}</td>
                <td>
                  <Badge tone={STATUS_TONE[g.status]}>{g.status}</Badge>
                  {g.refusal === null || g.refusal === undefined ? null : (
                    <span class="small" title={g.refusal.message}>
                      {' '}
                      {g.refusal.status} {g.refusal.code}
                      {g.refusal.count > 1 ? ` ×${g.refusal.count}` : ''}
                    </span>
                  )}
                </td>
                <td class="num">
                  {num(g.prompt_tokens)} / {num(g.completion_tokens)}
                </td>
                <td class="num">{usd(g.cost_usd)}</td>
                <td class="num">{ms(g.latency_ms)}</td>
                <td class="num">{ms(g.first_token_ms)}</td>
                <td class="num">{g.fallbacks}</td>
                <td>
                  {g.flags.map((fl) => (
                    <Badge key={fl} tone="warn">
                      {fl}
                    </Badge>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <p id="activity-hint" class="muted small">
        Select a time to open the generation. Prompt and completion text is never stored or shown.
      </p>
      {page.data !== null && page.data.data.length === 0 ? <p>No generations match these filters.</p> : null}
      <CursorPager trail={trail} next={page.data === null ? undefined : page.data.next_cursor} />
    </section>
  );
}
