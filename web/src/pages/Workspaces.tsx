import { useEffect, useState } from 'preact/hooks';
import { ApiError, del, patch, post } from '../api/client.js';
import { listMembers, listWorkspaces } from '../api/resources.js';
import type { Workspace } from '../api/types.js';
import { flashNext, useAction, useFlash, useLoad } from '../components/hooks.js';
import { when } from '../components/format.js';
import { ErrorBox, fieldError, LoadStatus, Modal, Notice, TableWrap, TextField, Truncated } from '../components/ui.js';
import { href, navigate, type Route } from '../router.js';
import { WorkspaceMembers } from './WorkspaceMembers.js';
import { OrgMembers } from './OrgMembers.js';

function WorkspaceForm(props: { initial: Workspace | null; onSaved: (w: Workspace) => void }) {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [slug, setSlug] = useState(props.initial?.slug ?? '');
  const [description, setDescription] = useState(props.initial?.description ?? '');
  const action = useAction();
  useEffect(() => {
    setName(props.initial?.name ?? '');
    setSlug(props.initial?.slug ?? '');
    setDescription(props.initial?.description ?? '');
  }, [props.initial?.id]);
  const submit = async (e: Event) => {
    e.preventDefault();
    const body = { name, slug, description: description === '' ? null : description };
    const res = await action.run(() =>
      props.initial === null
        ? post<Workspace>('/workspaces', body)
        : patch<Workspace>(`/workspaces/${props.initial.id}`, body),
    );
    if (res !== undefined) props.onSaved(unwrap(res));
  };
  const err = action.error;
  return (
    <form onSubmit={(e) => void submit(e)} aria-label={props.initial === null ? 'New workspace' : 'Edit workspace'}>
      <ErrorBox error={err} />
      <div class="row">
        <TextField label="Name" field="name" value={name} onInput={setName} err={err} hint="up to 100 characters" />
        <label>
          Slug
          <input
            required
            maxLength={50}
            pattern="[a-z0-9]+(-[a-z0-9]+)*"
            value={slug}
            onInput={(e) => setSlug(e.currentTarget.value)}
            aria-invalid={fieldError(err, 'slug') !== null}
          />
        </label>
        <label>
          Description
          <input maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <button class="primary" type="submit" disabled={action.busy}>
          {props.initial === null ? 'Create workspace' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** The API answers a workspace either bare or as {data}; accept both. */
function unwrap(res: Workspace | { data: Workspace }): Workspace {
  return 'data' in res ? res.data : res;
}

function NewMember({ onCreated }: { onCreated: () => void }) {
  const [email, setEmail] = useState('');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    if ((await action.run(() => post('/organization/members', { email }))) !== undefined) {
      setEmail('');
      onCreated();
    }
  };
  return (
    <form class="row" onSubmit={(e) => void submit(e)} aria-label="New organisation member">
      <label>
        New member's email
        <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={action.busy}>
        Add to organisation
      </button>
      <ErrorBox error={action.error} />
    </form>
  );
}

/** Delete with confirmation; a refusal (409: it still owns active keys) shows why, with a link to them. */
function WorkspaceDelete({ workspace, onDeleted }: { workspace: Workspace; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const remove = async () => {
    const done = await action.run(() => del(`/workspaces/${workspace.id}`));
    setConfirming(false);
    if (done !== undefined) onDeleted();
  };
  const refused = action.error instanceof ApiError && action.error.metadata?.['reason'] === 'active_keys';
  return (
    <div class="panel">
      <h2>Delete this workspace</h2>
      <ErrorBox error={action.error} />
      {refused ? (
        <p>
          <a href={href('/keys', { workspace: workspace.slug })}>See the workspace's keys</a> to disable or delete them.
        </p>
      ) : null}
      <button type="button" class="danger" onClick={() => setConfirming(true)}>
        Delete workspace
      </button>
      <Modal title="Delete this workspace?" open={confirming} onClose={() => setConfirming(false)}>
        <p>
          “<Truncated text={workspace.name} />” is deleted with its memberships and its disabled or expired keys. A
          workspace that still owns active keys is not deleted.
        </p>
        <p class="row">
          <button type="button" class="danger" disabled={action.busy} onClick={() => void remove()}>
            Delete workspace
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </p>
      </Modal>
    </div>
  );
}

/** Workspaces and members: create, edit, delete, add and remove members. */
export function Workspaces({ route }: { route: Route }) {
  const [flash] = useFlash();
  const ws = useLoad((signal) => listWorkspaces(signal), []);
  const members = useLoad((signal) => listMembers(signal), []);
  const selectedRef = route.segments[1];
  const selected = (ws.data ?? []).find((w) => w.id === selectedRef || w.slug === selectedRef) ?? null;
  return (
    <section aria-labelledby="ws-title">
      <h1 id="ws-title">Workspaces and members</h1>
      <LoadStatus state={ws} what="workspaces" />
      <LoadStatus state={members} what="members" />
      <Notice text={flash} />
      <div class="panel">
        <h2>New workspace</h2>
        <WorkspaceForm
          initial={null}
          onSaved={(w) => {
            ws.reload();
            navigate(`/workspaces/${w.slug}`);
          }}
        />
      </div>
      <TableWrap label="List of workspaces">
        <table>
          <thead>
            <tr>
              <th scope="col">Workspace</th>
              <th scope="col">Slug</th>
              <th scope="col">Description</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {(ws.data ?? []).map((w) => (
              <tr key={w.id} aria-selected={selected?.id === w.id}>
                <th scope="row">
                  <a href={href(`/workspaces/${w.slug}`)} aria-current={selected?.id === w.id ? 'true' : undefined}>
                    <Truncated text={w.name} />
                  </a>
                </th>
                <td class="mono">{w.slug}</td>
                <td>
                  <Truncated text={w.description ?? ''} />
                </td>
                <td class="small">{when(w.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {selected === null ? (
        <p class="muted">Select a workspace to edit it and manage its members.</p>
      ) : (
        <>
          <div class="panel">
            <h2>
              Edit <Truncated text={selected.name} />
            </h2>
            <WorkspaceForm
              initial={selected}
              onSaved={(w) => {
                ws.reload();
                navigate(`/workspaces/${w.slug}`);
              }}
            />
          </div>
          <WorkspaceMembers workspace={selected} members={members.data ?? []} />
          {selected.slug === 'default' ? null : (
            <WorkspaceDelete
              workspace={selected}
              onDeleted={() => {
                flashNext(`Workspace “${selected.name}” deleted.`);
                ws.reload();
                navigate('/workspaces');
              }}
            />
          )}
          <div class="panel">
            <h2>Organisation members</h2>
            <OrgMembers members={members.data ?? []} onSaved={members.reload} />
            <NewMember onCreated={members.reload} />
          </div>
        </>
      )}
    </section>
  );
}
