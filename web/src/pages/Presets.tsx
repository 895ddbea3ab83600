import { useState } from 'preact/hooks';
import { get, patch } from '../api/client.js';
import { listMembers, listModels, listWorkspaces, memberName } from '../api/resources.js';
import type { Member, Model, Page, Preset, PresetVersion, PresetWithVersion } from '../api/types.js';
import { flashNext, useAction, useFlash, useLoad } from '../components/hooks.js';
import { when } from '../components/format.js';
import { Badge, ErrorBox, LoadStatus, Modal, Notice, TableWrap, Truncated } from '../components/ui.js';
import { href, navigate, type Route } from '../router.js';
import { PresetPlayground } from './PresetPlayground.js';
import { Diff, versionText } from './PresetDiff.js';
import { PresetVersionForm } from './PresetVersionForm.js';

const modelOf = (config: Record<string, unknown> | undefined): string => {
  const m = config?.['model'];
  return typeof m === 'string' ? m : '—';
};

/** Members and models, for names in the history and the version form. */
const useDirectory = () =>
  useLoad(async (s) => {
    const [members, models] = await Promise.all([listMembers(s), listModels(s)]);
    return { members, models };
  }, []);

const byName = (members: Member[] | undefined, id: string | null) => {
  if (id === null) return '—';
  const m = members?.find((x) => x.id === id);
  return m === undefined ? id : memberName(m);
};

function PresetDetail({ slug, workspaceId }: { slug: string; workspaceId: string }) {
  const dir = useDirectory();
  const [message, setMessage] = useFlash();
  const [editing, setEditing] = useState(false);
  const [rollback, setRollback] = useState<number | null>(null);
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

  const isRollback = current !== null && rollback !== null && rollback < current;
  const designate = async (version: number) => {
    const done = await action.run(() =>
      patch(`/presets/${encodeURIComponent(slug)}`, { designated_version: version }, { query: q }),
    );
    setRollback(null);
    if (done === undefined) return;
    setMessage(
      current !== null && version < current
        ? `Rolled back to v${version}: calls to @preset/${slug} now use v${version}.`
        : `v${version} is now designated: calls to @preset/${slug} use it.`,
    );
    preset.reload();
  };
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
      <LoadStatus state={preset} what="the preset" />
      <LoadStatus state={versions} what="the versions" />
      <ErrorBox error={action.error} />
      <Notice text={message} />
      {p === undefined ? null : (
        <div class="panel row">
          <span>
            Status: <Badge tone={p.status === 'active' ? 'ok' : 'warn'}>{p.status}</Badge>
          </span>
          <span data-testid="designated-version">Designated version: {current ?? 'none'}</span>
          <span>
            Model: <code>{modelOf(p.designated_version?.config)}</code>
          </span>
          <span class="spacer" />
          <button type="button" class="primary" onClick={() => setEditing(true)}>
            New version
          </button>
          <button type="button" onClick={() => setStatus(p.status === 'active' ? 'archived' : 'active')}>
            {p.status === 'active' ? 'Archive' : 'Reactivate'}
          </button>
        </div>
      )}
      <h2>Version history</h2>
      <TableWrap label="Version history">
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
                <td class="small">
                  <Truncated text={byName(dir.data?.members, v.creator_id)} />
                </td>
                <td>
                  {v.version === current ? (
                    <Badge tone="ok">designated</Badge>
                  ) : (
                    <button type="button" disabled={action.busy} onClick={() => setRollback(v.version)}>
                      {current !== null && v.version < current ? 'Roll back' : 'Designate'} to v{v.version}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
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
      {from === null || to === null ? (
        <p class="muted">A diff needs two versions.</p>
      ) : (
        <Diff from={versionText(from)} to={versionText(to)} />
      )}
      {p === undefined ? null : <PresetPlayground slug={slug} />}
      <Modal
        title={`${isRollback ? 'Roll back' : 'Designate'} to v${rollback ?? ''}?`}
        open={rollback !== null}
        onClose={() => setRollback(null)}
      >
        <p>
          Calls to <code>@preset/{slug}</code> use v{rollback} from the next request on (now v{current ?? '—'}). No
          version is deleted; you can designate another one at any time.
        </p>
        <p class="row">
          <button
            type="button"
            class="primary"
            disabled={action.busy}
            onClick={() => rollback !== null && void designate(rollback)}
          >
            {isRollback ? 'Roll back now' : 'Designate now'}
          </button>
          <button type="button" onClick={() => setRollback(null)}>
            Cancel
          </button>
        </p>
      </Modal>
      <Modal title={`New version of ${slug}`} open={editing} onClose={() => setEditing(false)}>
        <PresetVersionForm
          workspaceId={workspaceId}
          slug={slug}
          designated={p?.designated_version ?? null}
          models={dir.data?.models ?? []}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            setMessage(`Saved v${saved.designated_version?.version ?? '?'}; it is now designated.`);
            preset.reload();
            versions.reload();
          }}
        />
      </Modal>
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
  const [creating, setCreating] = useState(false);
  const dir = useDirectory();
  const models: Model[] = dir.data?.models ?? [];
  const slug = route.segments[1];
  if (slug !== undefined && workspace !== undefined) return <PresetDetail slug={slug} workspaceId={workspace.id} />;
  return (
    <section aria-labelledby="presets-title">
      <h1 id="presets-title">Presets</h1>
      <LoadStatus state={ws} what="workspaces" />
      <LoadStatus state={list} what="presets" />
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
        <span class="spacer" />
        <button type="button" class="primary" disabled={workspace === undefined} onClick={() => setCreating(true)}>
          New preset
        </button>
      </div>
      {workspace === undefined ? null : (
        <Modal title="New preset" open={creating} onClose={() => setCreating(false)}>
          <PresetVersionForm
            workspaceId={workspace.id}
            slug={null}
            designated={null}
            models={models}
            onCancel={() => setCreating(false)}
            onSaved={(saved) => {
              setCreating(false);
              flashNext(`Preset “${saved.name}” created with v1.`);
              navigate(`/presets/${saved.slug}`, { workspace: workspace.id });
            }}
          />
        </Modal>
      )}
      <TableWrap label="List of presets">
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
      </TableWrap>
      {list.data?.data.length === 0 ? <p class="muted">No preset in this workspace.</p> : null}
    </section>
  );
}
