import { useState } from 'preact/hooks';
import { get, patch } from '../api/client.js';
import { listWorkspaces } from '../api/resources.js';
import type { Page, Preset, PresetVersion, PresetWithVersion } from '../api/types.js';
import { useAction, useLoad } from '../components/hooks.js';
import { when } from '../components/format.js';
import { diffLines, stableJson } from '../components/diff.js';
import { Badge, ErrorBox, Loading } from '../components/ui.js';
import { href, navigate, type Route } from '../router.js';
import { PresetPlayground } from './PresetPlayground.js';

const modelOf = (config: Record<string, unknown> | undefined): string => {
  const m = config?.['model'];
  return typeof m === 'string' ? m : '—';
};

const versionText = (v: PresetVersion) => `${stableJson(v.config)}\n--- system prompt ---\n${v.system_prompt}`;

function Diff({ from, to }: { from: PresetVersion; to: PresetVersion }) {
  const lines = diffLines(versionText(from), versionText(to));
  const changed = lines.filter((l) => l.kind !== 'same').length;
  return (
    <>
      <p class="muted small">
        {changed === 0
          ? 'The two versions are identical.'
          : `${changed} changed line(s): removed lines are marked −, added +.`}
      </p>
      <pre class="diff" data-testid="preset-diff">
        {lines.map((l, i) => (
          <span key={i} class={l.kind === 'same' ? undefined : l.kind}>
            {l.kind === 'add' ? '+ ' : l.kind === 'del' ? '− ' : '  '}
            {l.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </>
  );
}

function PresetDetail({ slug, workspaceId }: { slug: string; workspaceId: string }) {
  const q = { workspace_id: workspaceId };
  const preset = useLoad(
    (s) => get<{ data: PresetWithVersion }>(`/presets/${encodeURIComponent(slug)}`, { query: q, signal: s }),
    [slug, workspaceId],
  );
  const versions = useLoad(
    (s) =>
      get<Page<PresetVersion>>(`/presets/${encodeURIComponent(slug)}/versions`, {
        query: { ...q, limit: 100 },
        signal: s,
      }),
    [slug, workspaceId],
  );
  const [pair, setPair] = useState<{ from: number | null; to: number | null }>({ from: null, to: null });
  const action = useAction();
  const p = preset.data?.data;
  const vs = versions.data?.data ?? [];
  const current = p?.designated_version?.version ?? null;
  const latest = vs[vs.length - 1]?.version ?? null;
  const from = vs.find((v) => v.version === (pair.from ?? (latest === null ? null : latest - 1))) ?? null;
  const to = vs.find((v) => v.version === (pair.to ?? latest)) ?? null;

  const designate = (version: number) =>
    void action.run(async () => {
      await patch(`/presets/${encodeURIComponent(slug)}`, { designated_version: version }, { query: q });
      preset.reload();
    });
  const setStatus = (status: 'active' | 'archived') =>
    void action.run(async () => {
      await patch(`/presets/${encodeURIComponent(slug)}`, { status }, { query: q });
      preset.reload();
    });

  return (
    <section aria-labelledby="preset-title">
      <p>
        <a href={href('/presets', { workspace: workspaceId })}>← All presets</a>
      </p>
      <h1 id="preset-title">
        Preset <code>{slug}</code>
      </h1>
      <ErrorBox error={preset.error ?? versions.error ?? action.error} />
      {p === undefined ? (
        <Loading what="the preset" />
      ) : (
        <div class="panel row">
          <span>
            Status: <Badge tone={p.status === 'active' ? 'ok' : 'warn'}>{p.status}</Badge>
          </span>
          <span data-testid="designated-version">Designated version: {current ?? 'none'}</span>
          <span>
            Model: <code>{modelOf(p.designated_version?.config)}</code>
          </span>
          <span class="spacer" />
          <button type="button" onClick={() => setStatus(p.status === 'active' ? 'archived' : 'active')}>
            {p.status === 'active' ? 'Archive' : 'Reactivate'}
          </button>
        </div>
      )}
      <h2>Version history</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Model</th>
              <th scope="col">Created</th>
              <th scope="col">By</th>
              <th scope="col">Designated</th>
            </tr>
          </thead>
          <tbody>
            {[...vs].reverse().map((v) => (
              <tr key={v.id}>
                <th scope="row">v{v.version}</th>
                <td class="mono small">{modelOf(v.config)}</td>
                <td class="small">{when(v.created_at)}</td>
                <td class="small mono">{v.creator_id ?? '—'}</td>
                <td>
                  {v.version === current ? (
                    <Badge tone="ok">designated</Badge>
                  ) : (
                    <button type="button" disabled={action.busy} onClick={() => designate(v.version)}>
                      {current !== null && v.version < current ? 'Roll back' : 'Designate'} to v{v.version}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Compare versions</h2>
      <div class="row">
        {(['from', 'to'] as const).map((side) => (
          <label key={side}>
            {side === 'from' ? 'From' : 'To'}
            <select
              value={String((side === 'from' ? from : to)?.version ?? '')}
              onChange={(e) => setPair({ ...pair, [side]: Number(e.currentTarget.value) })}
            >
              {vs.map((v) => (
                <option key={v.version} value={v.version}>
                  v{v.version}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {from === null || to === null ? <p class="muted">A diff needs two versions.</p> : <Diff from={from} to={to} />}
      {p === undefined ? null : <PresetPlayground slug={slug} />}
    </section>
  );
}

/** Presets of a workspace: list; `#/presets/<slug>` shows history, diff, designate and the playground. */
export function Presets({ route }: { route: Route }) {
  const ws = useLoad((s) => listWorkspaces(s), []);
  const wsParam = route.query.get('workspace');
  const workspace = (ws.data ?? []).find((w) => w.id === wsParam || w.slug === wsParam) ?? ws.data?.[0];
  const list = useLoad(
    (s) =>
      workspace === undefined
        ? Promise.resolve(null)
        : get<Page<Preset>>('/presets', { query: { workspace_id: workspace.id, limit: 100 }, signal: s }),
    [workspace?.id],
  );
  const slug = route.segments[1];
  if (slug !== undefined && workspace !== undefined) return <PresetDetail slug={slug} workspaceId={workspace.id} />;
  return (
    <section aria-labelledby="presets-title">
      <h1 id="presets-title">Presets</h1>
      <ErrorBox error={ws.error ?? list.error} />
      <div class="panel row">
        <label>
          Workspace
          <select
            value={workspace?.id ?? ''}
            onChange={(e) => navigate('/presets', { workspace: e.currentTarget.value })}
          >
            {(ws.data ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <p class="muted small">
          New versions are created with <code>POST /api/v1/presets/&lt;slug&gt;/chat/completions</code> or{' '}
          <code>switchyard presets create</code>.
        </p>
      </div>
      {list.data === null ? <Loading what="presets" /> : null}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Preset</th>
              <th scope="col">Status</th>
              <th scope="col">Description</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.data ?? []).map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  <a href={href(`/presets/${p.slug}`, { workspace: workspace?.id })}>{p.name}</a>
                  <div class="mono small muted">@preset/{p.slug}</div>
                </th>
                <td>
                  <Badge tone={p.status === 'active' ? 'ok' : 'warn'}>{p.status}</Badge>
                </td>
                <td>{p.description ?? ''}</td>
                <td class="small">{when(p.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.data?.data.length === 0 ? <p class="muted">No preset in this workspace.</p> : null}
    </section>
  );
}
