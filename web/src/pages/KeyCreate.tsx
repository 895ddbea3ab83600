import { useState } from 'preact/hooks';
import { post } from '../api/client.js';
import type { Created, Guardrail, Key, Workspace } from '../api/types.js';
import { KeyLimitFields, type KeyLimits } from './KeyLimitFields.js';
import { useAction } from '../components/hooks.js';
import { ErrorBox, TextField, FormActions } from '../components/ui.js';

export interface KeyCreateProps {
  workspaces: Workspace[];
  guardrails: Guardrail[];
  workspaceId: string;
  onCreated: (created: Created<Key>) => void;
  onCancel: () => void;
}

/** Create a key: name, workspace, limit and reset, expiry, and a guardrail assigned right after. */
export function KeyCreate(props: KeyCreateProps) {
  const [name, setName] = useState('');
  const [workspace, setWorkspace] = useState(props.workspaceId);
  const [limits, setLimits] = useState<KeyLimits>({ limit: '', reset: '', expires: '' });
  const { limit, reset, expires } = limits;
  const [guardrail, setGuardrail] = useState('');
  const action = useAction();

  const submit = async (e: Event) => {
    e.preventDefault();
    const created = await action.run(async () => {
      const body: Record<string, unknown> = { name, workspace_id: workspace };
      if (limit !== '') body['limit'] = Number(limit);
      if (reset !== '') body['limit_reset'] = reset;
      if (expires !== '') body['expires_at'] = new Date(`${expires}Z`).toISOString();
      const res = await post<Created<Key>>('/keys', body);
      if (guardrail !== '') await post(`/guardrails/${guardrail}/assignments/keys`, { key_hashes: [res.data.hash] });
      return res;
    });
    if (created !== undefined) props.onCreated(created);
  };

  const err = action.error;
  return (
    <form onSubmit={(e) => void submit(e)}>
      <ErrorBox error={err} />
      <div class="row">
        <TextField label="Name" field="name" value={name} onInput={setName} err={err} />
        <label>
          Workspace
          <select value={workspace} onChange={(e) => setWorkspace(e.currentTarget.value)}>
            {props.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <KeyLimitFields value={limits} onChange={setLimits} err={err} />
      <div class="row">
        <label>
          Guardrail
          <select value={guardrail} onChange={(e) => setGuardrail(e.currentTarget.value)}>
            <option value="">none</option>
            {props.guardrails.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <FormActions submit={'Create key'} disabled={action.busy} onCancel={props.onCancel} />
    </form>
  );
}
