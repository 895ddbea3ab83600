import { useEffect, useState } from 'preact/hooks';
import { post } from '../api/client.js';
import type { BuiltinFilter, CustomFilter, FilterAction } from '../api/types.js';

export const BUILTINS: { slug: string; label: string; actions: FilterAction[] }[] = [
  { slug: 'email', label: 'Email addresses', actions: ['redact', 'block'] },
  { slug: 'phone', label: 'Phone numbers', actions: ['redact', 'block'] },
  { slug: 'ssn', label: 'US social security numbers', actions: ['redact', 'block'] },
  { slug: 'credit-card', label: 'Credit card numbers', actions: ['redact', 'block'] },
  { slug: 'ip-address', label: 'IP addresses', actions: ['redact', 'block'] },
  { slug: 'person-name', label: 'Person names', actions: ['redact', 'block'] },
  { slug: 'address', label: 'Postal addresses', actions: ['redact', 'block'] },
  { slug: 'regex-prompt-injection', label: 'Prompt injection', actions: ['flag', 'block', 'redact'] },
];

/** Builtin filters: one row per slug, on/off with its action (and scan scope for prompt injection). */
export function BuiltinEditor(props: { value: BuiltinFilter[]; onChange: (v: BuiltinFilter[]) => void }) {
  const bySlug = new Map(props.value.map((b) => [b.slug, b]));
  const set = (slug: string, next: BuiltinFilter | null) => {
    const rest = props.value.filter((b) => b.slug !== slug);
    props.onChange(next === null ? rest : [...rest, next]);
  };
  return (
    <fieldset>
      <legend>Builtin filters</legend>
      <table>
        <tbody>
          {BUILTINS.map((b) => {
            const cur = bySlug.get(b.slug);
            return (
              <tr key={b.slug}>
                <td>
                  <label class="inline">
                    <input
                      type="checkbox"
                      checked={cur !== undefined}
                      onChange={(e) =>
                        set(
                          b.slug,
                          e.currentTarget.checked
                            ? {
                                slug: b.slug,
                                action: b.actions[0] ?? 'redact',
                                ...(b.slug === 'regex-prompt-injection' ? { scan_scope: 'all_messages' as const } : {}),
                              }
                            : null,
                        )
                      }
                    />
                    {b.label} <code class="muted small">{b.slug}</code>
                  </label>
                </td>
                <td>
                  {cur === undefined ? null : (
                    <label class="inline">
                      Action
                      <select
                        value={cur.action}
                        onChange={(e) => set(b.slug, { ...cur, action: e.currentTarget.value as FilterAction })}
                      >
                        {b.actions.map((a) => (
                          <option key={a} value={a}>
                            {a}
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                </td>
                <td>
                  {cur === undefined || b.slug !== 'regex-prompt-injection' ? null : (
                    <label class="inline">
                      Scan
                      <select
                        value={cur.scan_scope ?? 'all_messages'}
                        onChange={(e) =>
                          set(b.slug, { ...cur, scan_scope: e.currentTarget.value as 'user_only' | 'all_messages' })
                        }
                      >
                        <option value="all_messages">all messages</option>
                        <option value="user_only">user messages only</option>
                      </select>
                    </label>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </fieldset>
  );
}

/** Asks the server's RE2 whether a pattern compiles; null when it does, else the error text. */
function usePatternError(pattern: string): string | null {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (pattern === '') {
      setError(null);
      return;
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      post<{ data: { valid: boolean; error: string | null } }>(
        '/guardrails/validate-pattern',
        { pattern },
        { signal: ctrl.signal },
      ).then(
        (r) => setError(r.data.valid ? null : (r.data.error ?? 'invalid pattern')),
        () => undefined,
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [pattern]);
  return error;
}

function CustomRow(props: {
  index: number;
  value: CustomFilter;
  serverError: string | null;
  onChange: (v: CustomFilter | null) => void;
  onValidity: (index: number, error: string | null) => void;
}) {
  const live = usePatternError(props.value.pattern);
  useEffect(() => props.onValidity(props.index, live), [live, props.index]);
  const error = live ?? props.serverError;
  const errId = `custom-${props.index}-error`;
  return (
    <tr>
      <td>
        <label>
          Pattern (RE2)
          <input
            class="mono"
            value={props.value.pattern}
            required
            maxLength={100000}
            aria-invalid={error !== null}
            aria-describedby={error === null ? undefined : errId}
            onInput={(e) => props.onChange({ ...props.value, pattern: e.currentTarget.value })}
          />
        </label>
        {error === null ? null : (
          <p class="field-error" id={errId} role="alert">
            Invalid pattern: {error}
          </p>
        )}
      </td>
      <td>
        <label>
          Action
          <select
            value={props.value.action}
            onChange={(e) => props.onChange({ ...props.value, action: e.currentTarget.value as 'redact' | 'block' })}
          >
            <option value="redact">redact</option>
            <option value="block">block</option>
          </select>
        </label>
      </td>
      <td>
        <label>
          Label
          <input
            maxLength={100}
            value={props.value.label ?? ''}
            onInput={(e) =>
              props.onChange({ ...props.value, label: e.currentTarget.value === '' ? null : e.currentTarget.value })
            }
          />
        </label>
      </td>
      <td>
        <button
          type="button"
          aria-label={`Remove custom filter ${props.index + 1}`}
          onClick={() => props.onChange(null)}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}

/** Custom regex filters, each checked by the server's RE2 as it is typed; the error shows inline. */
export function CustomEditor(props: {
  value: CustomFilter[];
  onChange: (v: CustomFilter[]) => void;
  /** The 400 of a save attempt naming `content_filters[i].pattern`. */
  serverError: { index: number; message: string } | null;
  onValidity: (index: number, error: string | null) => void;
}) {
  const set = (i: number, v: CustomFilter | null) => {
    const next = [...props.value];
    if (v === null) next.splice(i, 1);
    else next[i] = v;
    props.onChange(next);
  };
  return (
    <fieldset>
      <legend>Custom filters</legend>
      <table>
        <tbody>
          {props.value.map((f, i) => (
            <CustomRow
              key={i}
              index={i}
              value={f}
              serverError={props.serverError?.index === i ? props.serverError.message : null}
              onChange={(v) => set(i, v)}
              onValidity={props.onValidity}
            />
          ))}
        </tbody>
      </table>
      <button
        type="button"
        onClick={() => props.onChange([...props.value, { pattern: '', action: 'redact', label: null }])}
      >
        Add custom filter
      </button>
    </fieldset>
  );
}
