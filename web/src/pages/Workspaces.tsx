import { useEffect, useState } from 'preact/hooks';
import { patch, post } from '../api/client.js';
import { listMembers, listWorkspaces } from '../api/resources.js';
import type { Workspace } from '../api/types.js';
import { useAction, useLoad } from '../components/hooks.js';
import { when } from '../components/format.js';
import { ErrorBox, Loading, fieldError } from '../components/ui.js';
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
        <label>
          Name
          <input
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-invalid={fieldError(err, 'name') !== null}
          />
        </label>
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

/** Workspaces and members: create, edit, add and remove members. */
export function Workspaces({ route }: { route: Route }) {
  const ws = useLoad((signal) => listWorkspaces(signal), []);
  const members = useLoad((signal) => listMembers(signal), []);
  const selectedRef = route.segments[1];
  const selected = (ws.data ?? []).find((w) => w.id === selectedRef || w.slug === selectedRef) ?? null;
  return (
    <section aria-labelledby="ws-title">
      <h1 id="ws-title">Workspaces and members</h1>
      <ErrorBox error={ws.error ?? members.error} />
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
      {ws.data === null ? <Loading what="workspaces" /> : null}
      <div class="table-wrap">
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
                    {w.name}
                  </a>
                </th>
                <td class="mono">{w.slug}</td>
                <td>{w.description ?? ''}</td>
                <td class="small">{when(w.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {selected === null ? (
        <p class="muted">Select a workspace to edit it and manage its members.</p>
      ) : (
        <>
          <div class="panel">
            <h2>Edit {selected.name}</h2>
            <WorkspaceForm
              initial={selected}
              onSaved={(w) => {
                ws.reload();
                navigate(`/workspaces/${w.slug}`);
              }}
            />
          </div>
          <WorkspaceMembers workspace={selected} members={members.data ?? []} />
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
