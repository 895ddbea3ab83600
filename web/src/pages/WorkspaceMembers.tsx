import { useState } from 'preact/hooks';
import { ApiError, get, post } from '../api/client.js';
import { memberName } from '../api/resources.js';
import type { Member, Page, Workspace, WorkspaceMember } from '../api/types.js';
import { useAction, useLoad } from '../components/hooks.js';
import { ErrorBox, LoadStatus } from '../components/ui.js';
import { href } from '../router.js';
import { MemberRole } from './MemberRole.js';

/** A workspace's members: add from the organisation, remove (all or nothing: 409 names key holders). */
export function WorkspaceMembers({ workspace, members }: { workspace: Workspace; members: Member[] }) {
  const list = useLoad(
    (signal) => get<Page<WorkspaceMember>>(`/workspaces/${workspace.id}/members`, { query: { limit: 100 }, signal }),
    [workspace.id],
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [toAdd, setToAdd] = useState<string[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const byId = new Map(members.map((m) => [m.id, m]));
  const current = list.data?.data ?? [];
  const currentIds = new Set(current.map((m) => m.user_id));
  const candidates = members.filter((m) => !currentIds.has(m.id));
  const isDefault = workspace.slug === 'default';

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const add = async () => {
    setDone(null);
    const res = await action.run(() =>
      post<{ added_count: number }>(`/workspaces/${workspace.id}/members/add`, { user_ids: toAdd }),
    );
    if (res !== undefined) {
      setDone(`Added ${res.added_count} member(s).`);
      setToAdd([]);
      list.reload();
    }
  };
  const remove = async () => {
    setDone(null);
    const res = await action.run(() =>
      post<{ removed_count: number }>(`/workspaces/${workspace.id}/members/remove`, { user_ids: [...selected] }),
    );
    if (res !== undefined) {
      setDone(`Removed ${res.removed_count} member(s).`);
      setSelected(new Set());
      list.reload();
    }
  };

  const conflict =
    action.error instanceof ApiError &&
    action.error.status === 409 &&
    Array.isArray(action.error.metadata?.['user_ids'])
      ? action.error.metadata['user_ids'].filter((x): x is string => typeof x === 'string')
      : null;

  return (
    <div class="panel">
      <h2>Members of {workspace.name}</h2>
      {isDefault ? <p class="muted">Every member of the organisation belongs to the default workspace.</p> : null}
      {conflict === null ? (
        <ErrorBox error={action.error} />
      ) : (
        <div class="alert error" role="alert" data-testid="remove-conflict">
          <p>
            <strong>Nothing was removed.</strong> {action.error instanceof ApiError ? action.error.message : ''}
          </p>
          <p>These members still hold active keys in this workspace; disable or delete those keys first:</p>
          <ul>
            {conflict.map((id) => {
              const m = byId.get(id);
              return (
                <li key={id}>
                  {m === undefined ? <code>{id}</code> : memberName(m)} —{' '}
                  <a href={href('/keys', { workspace: workspace.slug, creator: id })}>their keys</a>
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {done === null ? null : (
        <div class="alert ok" role="status">
          {done}
        </div>
      )}
      <LoadStatus state={list} what="members" />
      <table>
        <thead>
          <tr>
            <th scope="col">{isDefault ? '' : 'Select'}</th>
            <th scope="col">Member</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {current.map((wm) => {
            const m = byId.get(wm.user_id);
            const name = m === undefined ? wm.user_id : memberName(m);
            return (
              <tr key={wm.user_id}>
                <td>
                  {isDefault ? null : (
                    <input
                      type="checkbox"
                      aria-label={`Select ${name}`}
                      checked={selected.has(wm.user_id)}
                      onChange={() => toggle(wm.user_id)}
                    />
                  )}
                </td>
                <td>{name}</td>
                <td>
                  <MemberRole
                    workspaceId={workspace.id}
                    userId={wm.user_id}
                    name={name}
                    role={wm.role}
                    onSaved={list.reload}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {isDefault ? null : (
        <div class="row">
          <button
            type="button"
            class="danger"
            disabled={selected.size === 0 || action.busy}
            onClick={() => void remove()}
          >
            Remove selected ({selected.size})
          </button>
          <span class="spacer" />
          <label>
            Add members
            <select
              multiple
              size={Math.min(5, Math.max(2, candidates.length))}
              onChange={(e) => setToAdd([...e.currentTarget.selectedOptions].map((o) => o.value))}
            >
              {candidates.map((m) => (
                <option key={m.id} value={m.id} selected={toAdd.includes(m.id)}>
                  {memberName(m)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" class="primary" disabled={toAdd.length === 0 || action.busy} onClick={() => void add()}>
            Add
          </button>
        </div>
      )}
    </div>
  );
}
