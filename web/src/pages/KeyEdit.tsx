import { useState } from 'preact/hooks';
import { patch } from '../api/client.js';
import type { Key } from '../api/types.js';
import { KeyLimitFields, type KeyLimits } from './KeyLimitFields.js';
import { useAction } from '../components/hooks.js';
import { ErrorBox, TextField, FormActions } from '../components/ui.js';

/** `2030-01-02T03:04:05.000Z` → the datetime-local value `2030-01-02T03:04:05` (UTC). */
const localUtc = (iso: string | null) => (iso === null ? '' : new Date(iso).toISOString().slice(0, 19));

/** Edit a key in place: name, limit, reset and expiry (PATCH /keys/{hash}; only changed fields are sent). */
export function KeyEdit(props: { keyRecord: Key; onSaved: (k: Key) => void; onCancel: () => void }) {
  const k = props.keyRecord;
  const [name, setName] = useState(k.name);
  const [limits, setLimits] = useState<KeyLimits>({
    limit: k.limit === null ? '' : String(k.limit),
    reset: k.limit_reset ?? '',
    expires: localUtc(k.expires_at),
  });
  const { limit, reset, expires } = limits;
  const action = useAction();

  const submit = async (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = {};
    if (name !== k.name) body['name'] = name;
    const nextLimit = limit === '' ? null : Number(limit);
    if (nextLimit !== k.limit) body['limit'] = nextLimit;
    const nextReset = reset === '' ? null : reset;
    if (nextReset !== k.limit_reset) body['limit_reset'] = nextReset;
    if (expires !== localUtc(k.expires_at))
      body['expires_at'] = expires === '' ? null : new Date(`${expires}Z`).toISOString();
    if (Object.keys(body).length === 0) return props.onCancel();
    const saved = await action.run(() => patch<{ data: Key }>(`/keys/${k.hash}`, body));
    if (saved !== undefined) props.onSaved(saved.data);
  };

  const err = action.error;
  return (
    <form onSubmit={(e) => void submit(e)}>
      <ErrorBox error={err} />
      <div class="row">
        <TextField label="Name" field="name" value={name} onInput={setName} err={err} />
      </div>
      <KeyLimitFields value={limits} onChange={setLimits} err={err} />
      <p class="muted small">Leave the limit empty for no limit and the expiry empty for a key that never expires.</p>
      <FormActions submit={'Save changes'} disabled={action.busy} onCancel={props.onCancel} />
    </form>
  );
}
