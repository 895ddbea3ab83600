import { useState } from 'preact/hooks';
import { del, get } from '../api/client.js';
import { listGuardrails, listKeys, listMembers, listModels, listProviders, listWorkspaces } from '../api/resources.js';
import type { Guardrail } from '../api/types.js';
import { flashNext, useAction, useFlash, useLoad } from '../components/hooks.js';
import { usd, when } from '../components/format.js';
import { ErrorBox, LoadStatus, Modal, TableWrap, Truncated } from '../components/ui.js';
import { href, navigate, type Route } from '../router.js';
import { GuardrailAssignments } from './GuardrailAssignments.js';
import { GuardrailForm } from './GuardrailForm.js';
import { GuardrailTry } from './GuardrailTry.js';

/** Guardrails: list; `#/guardrails/new` creates; `#/guardrails/<id>` edits, assigns and tries one. */
export function Guardrails({ route }: { route: Route }) {
  const sub = route.segments[1];
  const list = useLoad((s) => listGuardrails(s), []);
  const ctx = useLoad(async (s) => {
    const [workspaces, models, providers, members] = await Promise.all([
      listWorkspaces(s),
      listModels(s),
      listProviders(s),
      listMembers(s),
    ]);
    const keys = (await Promise.all(workspaces.map((w) => listKeys(w.id, s)))).flat();
    return { workspaces, models, providers, members, keys };
  }, []);
  const one = useLoad(
    (s) =>
      sub === undefined || sub === 'new'
        ? Promise.resolve(null)
        : get<{ data: Guardrail }>(`/guardrails/${sub}`, { signal: s }).then((r) => r.data),
    [sub],
  );
  const [saved, setSaved] = useFlash();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const action = useAction();
  const wsName = (id: string) => ctx.data?.workspaces.find((w) => w.id === id)?.name ?? id;

  const afterSave = (g: Guardrail, created: boolean) => {
    list.reload();
    if (created) {
      flashNext(`Guardrail “${g.name}” created.`);
      navigate(`/guardrails/${g.id}`);
    } else {
      setSaved(`Saved at ${when(g.updated_at)}.`);
      one.reload();
    }
  };

  if (sub !== undefined) {
    const g = one.data;
    return (
      <section aria-labelledby="gr-title">
        <p>
          <a href="#/guardrails" onClick={() => setSaved(null)}>
            ← All guardrails
          </a>
        </p>
        <h1 id="gr-title">{sub === 'new' ? 'New guardrail' : (g?.name ?? 'Guardrail')}</h1>
        {saved === null ? null : (
          <div class="alert ok" role="status">
            {saved}
          </div>
        )}
        <LoadStatus state={one} what="the guardrail" />
        <LoadStatus state={ctx} what="workspaces, models and keys" />
        <ErrorBox error={action.error} />
        {ctx.data === null || (sub !== 'new' && g === null) ? null : (
          <>
            <div class="panel">
              <GuardrailForm
                key={g?.id ?? 'new'}
                initial={sub === 'new' ? null : g}
                workspaces={ctx.data.workspaces}
                models={ctx.data.models}
                providers={ctx.data.providers}
                onSaved={(saved) => afterSave(saved, sub === 'new')}
              />
            </div>
            {g === null ? null : (
              <>
                <GuardrailTry guardrailId={g.id} />
                <GuardrailAssignments
                  guardrail={g}
                  keys={ctx.data.keys}
                  members={ctx.data.members}
                  guardrails={list.data ?? []}
                  workspaces={ctx.data.workspaces}
                />
                <div class="panel">
                  <h2>Delete</h2>
                  <button type="button" class="danger" onClick={() => setConfirmDelete(true)}>
                    Delete this guardrail
                  </button>
                </div>
                <Modal title="Delete this guardrail?" open={confirmDelete} onClose={() => setConfirmDelete(false)}>
                  <p>
                    “{g.name}” and its assignments are deleted; the keys and members it governed are no longer limited
                    by it.
                  </p>
                  <p class="row">
                    <button
                      type="button"
                      class="danger"
                      onClick={() =>
                        void action.run(async () => {
                          await del(`/guardrails/${g.id}`);
                          setConfirmDelete(false);
                          list.reload();
                          navigate('/guardrails');
                        })
                      }
                    >
                      Delete guardrail
                    </button>
                    <button type="button" onClick={() => setConfirmDelete(false)}>
                      Cancel
                    </button>
                  </p>
                </Modal>
              </>
            )}
          </>
        )}
      </section>
    );
  }

  return (
    <section aria-labelledby="gr-title">
      <h1 id="gr-title">Guardrails</h1>
      <p class="row">
        <a class="primary" href="#/guardrails/new" onClick={() => setSaved(null)}>
          New guardrail
        </a>
      </p>
      <LoadStatus state={list} what="guardrails" />
      <TableWrap label="List of guardrails">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Workspace</th>
              <th scope="col">Budget</th>
              <th scope="col">Filters</th>
              <th scope="col">Models</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).map((g) => (
              <tr key={g.id}>
                <th scope="row">
                  <a href={href(`/guardrails/${g.id}`)}>
                    <Truncated text={g.name} />
                  </a>
                  {g.description === null ? null : <div class="muted small">{g.description}</div>}
                </th>
                <td>
                  <Truncated text={wsName(g.workspace_id)} />
                </td>
                <td>{g.limit_usd === null ? '—' : `${usd(g.limit_usd)} ${g.reset_interval ?? 'lifetime'}`}</td>
                <td>{(g.content_filter_builtins?.length ?? 0) + (g.content_filters?.length ?? 0)}</td>
                <td class="small">
                  {g.allowed_models === null ? 'any' : `${g.allowed_models.length} allowed`}
                  {g.ignored_models === null ? '' : `, ${g.ignored_models.length} ignored`}
                </td>
                <td class="small">{when(g.updated_at ?? g.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {list.data?.length === 0 ? <p class="muted">No guardrail yet.</p> : null}
    </section>
  );
}
