import { get } from '../api/client.js';
import type { Generation, Refusal } from '../api/types.js';
import { useLoad } from '../components/hooks.js';
import { ms, num, usd, when } from '../components/format.js';
import { Badge, LoadStatus } from '../components/ui.js';
import { listWorkspaces } from '../api/resources.js';
import { href } from '../router.js';

/** A refusal's status, code, message and the rule, guardrail or budget it names. */
function refusalRows(r: Refusal | null | undefined): [string, preact.ComponentChildren][] {
  if (r === null || r === undefined) return [];
  const details = Object.entries(r.details).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
  return [
    [
      'Refused',
      <>
        <Badge tone="bad">{r.status}</Badge> {r.code}
      </>,
    ],
    ['Reason', r.message],
    ['Rule and limits', details.length === 0 ? '—' : details.join('; ')],
    ...(r.count > 1 ? [['Refusals summed', num(r.count)] as [string, preact.ComponentChildren]] : []),
  ];
}

/** One generation's record (never its prompt or completion text). */
export function GenerationDetail({ id, back }: { id: string; back: string }) {
  const g = useLoad(
    (signal) =>
      get<{ data: Generation; key: { hash: string; name: string; label: string } | null }>(
        `/generations/${encodeURIComponent(id)}`,
        { signal },
      ),
    [id],
  );
  const workspaces = useLoad((signal) => listWorkspaces(signal), []);
  const d = g.data?.data;
  const key = g.data?.key ?? null;
  const workspace = (workspaces.data ?? []).find((w) => w.id === d?.workspace_id);
  const rows: [string, preact.ComponentChildren][] =
    d === undefined
      ? []
      : [
          ['Time (UTC)', when(d.created_at)],
          ...refusalRows(d.refusal),
          [
            'Key',
            key === null ? (
              <span class="muted">deleted key</span>
            ) : (
              <a href={href('/keys', { workspace: workspace?.slug, hash: key.hash })}>
                {key.name} ({key.label})
              </a>
            ),
          ],
          ['Model', <code>{d.model}</code>],
          ['Provider', d.provider_name ?? '—'],
          ['API surface', d.api_surface],
          ['API type', d.api_type ?? '—'],
          ['Finish reason', d.finish_reason ?? '—'],
          ['Streamed', d.streamed === null ? '—' : d.streamed ? 'yes' : 'no'],
          ['Cancelled', d.cancelled === true ? 'yes' : 'no'],
          ['Prompt tokens', num(d.tokens_prompt)],
          ['Completion tokens', num(d.tokens_completion)],
          ['Reasoning tokens', num(d.native_tokens_reasoning)],
          ['Cached tokens', num(d.native_tokens_cached)],
          ['Cost', usd(d.total_cost)],
          ['Latency', ms(d.latency)],
          ['Generation time', ms(d.generation_time)],
          [
            'Workspace',
            workspace === undefined ? (
              (d.workspace_id ?? '—')
            ) : (
              <a href={href(`/workspaces/${workspace.slug}`)}>{workspace.name}</a>
            ),
          ],
          ['Preset', d.preset_id ?? '—'],
          ['Request id', d.request_id ?? '—'],
          ['Upstream id', d.upstream_id ?? '—'],
          ['User agent', d.user_agent ?? '—'],
          ['Session', d.session_id ?? '—'],
          ['Origin', d.origin === '' ? '—' : d.origin],
          [
            'Filter flags',
            d.content_filter_flags.length === 0
              ? 'none'
              : d.content_filter_flags.map((f) => (
                  <Badge key={f} tone="warn">
                    {f}
                  </Badge>
                )),
          ],
        ];
  return (
    <section aria-labelledby="gen-title">
      <p>
        <a href={back}>← Back to the activity log</a>
      </p>
      <h1 id="gen-title">
        Generation <code>{id}</code>
      </h1>
      <LoadStatus state={g} what="the generation" />
      {d === undefined ? null : (
        <div class="grid2">
          <div class="panel">
            <table>
              <tbody>
                {rows.map(([k, v]) => (
                  <tr key={k}>
                    <th scope="row">{k}</th>
                    <td>{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="panel">
            <h2>Attempts</h2>
            <table>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Upstream model</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {(d.provider_responses ?? []).map((a, i) => (
                  <tr key={i}>
                    <td>{i + 1}</td>
                    <td>{a.provider_name ?? '—'}</td>
                    <td class="mono small">{a.model_permaslug ?? '—'}</td>
                    <td>
                      <Badge tone={a.status !== null && a.status < 400 ? 'ok' : 'bad'}>{a.status ?? 'no answer'}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
