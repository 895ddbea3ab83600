import { useId, useState } from 'preact/hooks';

export interface ListPickerProps {
  label: string;
  /** null = not set (no restriction); an array = the list. */
  value: string[] | null;
  onChange: (v: string[] | null) => void;
  options: { value: string; label: string }[];
  /** Allow entries that are not in the options (providers not configured yet). */
  allowOther?: boolean;
  invalid?: string | null;
}

/** Picks a list of catalog entries as removable chips; an empty list is stored as "not set". */
export function ListPicker(props: ListPickerProps) {
  const [pick, setPick] = useState('');
  const id = useId();
  const listId = `${id}-options`;
  const current = props.value ?? [];
  const add = () => {
    const v = pick.trim();
    if (v === '' || current.includes(v)) return;
    if (props.allowOther !== true && !props.options.some((o) => o.value === v)) return;
    props.onChange([...current, v]);
    setPick('');
  };
  const remove = (v: string) => {
    const next = current.filter((x) => x !== v);
    props.onChange(next.length === 0 ? null : next);
  };
  return (
    <fieldset>
      <legend>{props.label}</legend>
      <div class="chips" aria-live="polite">
        {current.length === 0 ? <span class="muted small">not set</span> : null}
        {current.map((v) => (
          <span class="chip" key={v}>
            <span class="mono small">{v}</span>
            <button type="button" aria-label={`Remove ${v} from ${props.label}`} onClick={() => remove(v)}>
              ×
            </button>
          </span>
        ))}
      </div>
      <div class="row">
        <label>
          Add to {props.label.toLowerCase()}
          <input
            list={listId}
            value={pick}
            aria-invalid={props.invalid !== null && props.invalid !== undefined}
            onInput={(e) => setPick(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <datalist id={listId}>
            {props.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </datalist>
        </label>
        <button type="button" onClick={add}>
          Add
        </button>
      </div>
      {props.invalid === null || props.invalid === undefined ? null : <p class="field-error">{props.invalid}</p>}
    </fieldset>
  );
}
