import type { LimitReset } from '../api/types.js';
import { fieldError } from '../components/ui.js';

/** The limit, reset and expiry of a key as form values (empty: no limit, never resets, never expires). */
export interface KeyLimits {
  limit: string;
  reset: LimitReset | '';
  /** A datetime-local value, read as UTC. */
  expires: string;
}

/** The limit, reset and expiry fields shared by the create and edit forms; `err` marks the field a 400 names. */
export function KeyLimitFields(props: { value: KeyLimits; onChange: (v: KeyLimits) => void; err: unknown }) {
  const { value, onChange, err } = props;
  return (
    <div class="row">
      <label>
        Limit (USD)
        <input
          type="number"
          min="0"
          step="0.01"
          value={value.limit}
          placeholder="no limit"
          onInput={(e) => onChange({ ...value, limit: e.currentTarget.value })}
          aria-invalid={fieldError(err, 'limit') !== null}
        />
      </label>
      <label>
        Limit resets
        <select
          value={value.reset}
          onChange={(e) => onChange({ ...value, reset: e.currentTarget.value as LimitReset | '' })}
        >
          <option value="">never</option>
          <option value="daily">daily</option>
          <option value="weekly">weekly</option>
          <option value="monthly">monthly</option>
        </select>
      </label>
      <label>
        Expires (UTC)
        <input
          type="datetime-local"
          step="1"
          value={value.expires}
          onInput={(e) => onChange({ ...value, expires: e.currentTarget.value })}
          aria-invalid={fieldError(err, 'expires_at') !== null}
        />
      </label>
    </div>
  );
}
