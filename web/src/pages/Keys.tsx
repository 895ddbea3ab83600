import { useState } from 'preact/hooks';
import { del, patch, post } from '../api/client.js';
import { listGuardrails, listKeys, listMembers, listWorkspaces, memberName } from '../api/resources.js';
import type { Created, Key } from '../api/types.js';
import { useAction, useLoad } from '../components/hooks.js';
import { usd, when } from '../components/format.js';
import {
  Badge,
  ErrorBox,
  LoadStatus,
  Meter,
  Modal,
  Notice,
  TableWrap,
  TokenReveal,
  Truncated,
} from '../components/ui.js';
import { href, navigate, type Route } from '../router.js';
import { KeyCreate } from './KeyCreate.js';
import { KeyEdit } from './KeyEdit.js';

type Dialog =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'edit'; key: Key }
  | { kind: 'token'; title: string; token: string }
  | { kind: 'confirm-rotate'; key: Key }
  | { kind: 'confirm-delete'; key: Key };

function spentInWindow(k: Key): number {
  if (k.limit !== null && k.limit_remaining !== null) return Math.max(0, k.limit - k.limit_remaining);
  return k.usage;
}

/** Keys: search, usage against limit, create (token shown once), rotate, disable/enable, delete. */
export function Keys({ route }: { route: Route }) {
  const workspaceParam = route.query.get('workspace');
  const q = route.query.get('q') ?? '';
  const creator = route.query.get('creator');
  const focusHash = route.query.get('hash');
  const meta = useLoad(async (signal) => {
    const [workspaces, guardrails, members] = await Promise.all([
      listWorkspaces(signal),
      listGuardrails(signal),
      listMembers(signal),
    ]);
    return { workspaces, guardrails, members };
  }, []);
  const workspaces = meta.data?.workspaces ?? [];
  const workspace = workspaces.find((w) => w.id === workspaceParam || w.slug === workspaceParam) ?? workspaces[0];
  const keys = useLoad(
    (signal) => (workspace === undefined ? Promise.resolve([]) : listKeys(workspace.id, signal)),
    [workspace?.id],
  );
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const setQuery = (next: Record<string, string | null>) =>
    navigate('/keys', { workspace: workspace?.slug, q, creator, hash: focusHash, ...next });

  const creatorMember = meta.data?.members.find((m) => m.id === creator);
  const creatorName = creatorMember === undefined ? <code>{creator}</code> : memberName(creatorMember);
  const needle = q.toLowerCase();
  const shown = (keys.data ?? []).filter(
    (k) =>
      (needle === '' ||
        k.name.toLowerCase().includes(needle) ||
        k.label.toLowerCase().includes(needle) ||
        k.hash.startsWith(needle)) &&
      (creator === null || k.creator_user_id === creator) &&
      (focusHash === null || k.hash === focusHash),
  );

  const toggle = (k: Key) =>
    void action.run(async () => {
      await patch(`/keys/${k.hash}`, { disabled: !k.disabled });
      keys.reload();
    });
  const rotate = async (k: Key) => {
    const res = await action.run(() => post<Created<Key>>(`/keys/${k.hash}/rotate`));
    if (res !== undefined) {
      setDialog({ kind: 'token', title: `New token for “${k.name}”`, token: res.key });
      keys.reload();
    } else setDialog({ kind: 'none' });
  };
  const remove = async (k: Key) => {
    await action.run(() => del(`/keys/${k.hash}`));
    setDialog({ kind: 'none' });
    keys.reload();
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <LoadStatus state={meta} what="workspaces and guardrails" />
      <LoadStatus state={keys} what="keys" />
      <ErrorBox error={action.error} />
      <Notice text={saved} />
      <div class="row panel">
        <label>
          Workspace
          <select
            value={workspace?.id ?? ''}
            onChange={(e) => setQuery({ workspace: e.currentTarget.value, hash: null })}
          >
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search
          <input
            type="search"
            placeholder="name, label or hash"
            value={q}
            onInput={(e) => setQuery({ q: e.currentTarget.value })}
          />
        </label>
        {creator !== null || focusHash !== null ? (
          <span>
            Showing {creator !== null ? <>keys created by {creatorName}</> : <>one key</>}.{' '}
            <a href={href('/keys', { workspace: workspace?.slug })}>Show all</a>
          </span>
        ) : null}
        <span class="spacer" />
        <button
          class="primary"
          type="button"
          onClick={() => setDialog({ kind: 'create' })}
          disabled={workspace === undefined}
        >
          Create key
        </button>
      </div>
      <TableWrap label="List of API keys">
        <table>
          <caption class="skip">API keys of the workspace</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Token</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Spent
              </th>
              <th scope="col">Against limit</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((k) => (
              <tr key={k.hash} data-key-hash={k.hash}>
                <td>
                  <strong>
                    <Truncated text={k.name} />
                  </strong>
                  <div class="muted small mono">{k.hash.slice(0, 12)}</div>
                </td>
                <td class="mono">{k.label}</td>
                <td>{k.disabled ? <Badge tone="bad">disabled</Badge> : <Badge tone="ok">active</Badge>}</td>
                <td class="num">
                  {usd(k.usage)}
                  <div class="muted small">today {usd(k.usage_daily)}</div>
                </td>
                <td>
                  <Meter used={spentInWindow(k)} limit={k.limit} label={`${k.name}: spend against limit`} />
                  {k.limit === null ? null : (
                    <div class="small">
                      {usd(spentInWindow(k))} of {usd(k.limit)} {k.limit_reset ?? 'lifetime'}
                    </div>
                  )}
                </td>
                <td class="small">{when(k.expires_at)}</td>
                <td>
                  <div class="row">
                    <button
                      type="button"
                      onClick={() => setDialog({ kind: 'edit', key: k })}
                      aria-label={`Edit ${k.name}`}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      onClick={() => setDialog({ kind: 'confirm-rotate', key: k })}
                      aria-label={`Rotate ${k.name}`}
                    >
                      Rotate
                    </button>
                    <button
                      type="button"
                      onClick={() => toggle(k)}
                      aria-label={`${k.disabled ? 'Enable' : 'Disable'} ${k.name}`}
                    >
                      {k.disabled ? 'Enable' : 'Disable'}
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => setDialog({ kind: 'confirm-delete', key: k })}
                      aria-label={`Delete ${k.name}`}
                    >
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {keys.data !== null && shown.length === 0 ? <p class="muted">No keys match.</p> : null}

      <Modal title="Create an API key" open={dialog.kind === 'create'} onClose={() => setDialog({ kind: 'none' })}>
        {workspace === undefined ? null : (
          <KeyCreate
            workspaces={workspaces}
            guardrails={meta.data?.guardrails ?? []}
            workspaceId={workspace.id}
            onCancel={() => setDialog({ kind: 'none' })}
            onCreated={(c) => {
              setDialog({ kind: 'token', title: `Key “${c.data.name}” created`, token: c.key });
              keys.reload();
            }}
          />
        )}
      </Modal>
      <Modal
        title={dialog.kind === 'edit' ? `Edit “${dialog.key.name}”` : ''}
        open={dialog.kind === 'edit'}
        onClose={() => setDialog({ kind: 'none' })}
      >
        {dialog.kind === 'edit' ? (
          <KeyEdit
            keyRecord={dialog.key}
            onCancel={() => setDialog({ kind: 'none' })}
            onSaved={(k) => {
              setDialog({ kind: 'none' });
              setSaved(`Saved “${k.name}”.`);
              keys.reload();
            }}
          />
        ) : null}
      </Modal>
      <Modal
        title={dialog.kind === 'token' ? dialog.title : ''}
        open={dialog.kind === 'token'}
        onClose={() => setDialog({ kind: 'none' })}
      >
        {dialog.kind === 'token' ? <TokenReveal token={dialog.token} what="Here is the API key." /> : null}
        <button type="button" onClick={() => setDialog({ kind: 'none' })}>
          Done
        </button>
      </Modal>
      <Modal
        title="Rotate this key?"
        open={dialog.kind === 'confirm-rotate'}
        onClose={() => setDialog({ kind: 'none' })}
      >
        {dialog.kind === 'confirm-rotate' ? (
          <>
            <p>
              “{dialog.key.name}” gets a new token; the current one stops working on its next request. Name, limits and
              usage stay.
            </p>
            <p class="row">
              <button class="primary" type="button" disabled={action.busy} onClick={() => void rotate(dialog.key)}>
                Rotate now
              </button>
              <button type="button" onClick={() => setDialog({ kind: 'none' })}>
                Cancel
              </button>
            </p>
          </>
        ) : null}
      </Modal>
      <Modal
        title="Delete this key?"
        open={dialog.kind === 'confirm-delete'}
        onClose={() => setDialog({ kind: 'none' })}
      >
        {dialog.kind === 'confirm-delete' ? (
          <>
            <p>
              “{dialog.key.name}” ({dialog.key.label}) stops working immediately. This cannot be undone.
            </p>
            <p class="row">
              <button class="danger" type="button" disabled={action.busy} onClick={() => void remove(dialog.key)}>
                Delete key
              </button>
              <button type="button" onClick={() => setDialog({ kind: 'none' })}>
                Cancel
              </button>
            </p>
          </>
        ) : null}
      </Modal>
    </section>
  );
}
