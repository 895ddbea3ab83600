import { useId, useState } from 'preact/hooks';

export interface ListPickerProps {
  label: string;
  /** null = not set (no restriction); an array = the list. */
  value: string[] | null;
  onChange: (v: string[] | null) => void;
  /** `aliases`: other spellings that pick this option (a model's id for its canonical slug). */
  options: { value: string; label: string; aliases?: string[] }[];
  /** Allow entries that are not in the options (providers not configured yet), with a note. */
  allowOther?: boolean;
  /** What the options are, for the message about a typed entry that is not one of them. */
  noun?: string;
  invalid?: string | null;
}

/** Picks a list of catalog entries as removable chips; an empty list is stored as "not set". */
export function ListPicker(props: ListPickerProps) {
  const [pick, setPick] = useState('');
  // What happened to the last typed entry that is not an option: refused, or kept with a note.
  const [note, setNote] = useState<string | null>(null);
  const id = useId();
  const listId = `${id}-options`;
  const current = props.value ?? [];
  const add = () => {
    const typed = pick.trim();
    if (typed === '') return;
    const noun = props.noun ?? 'entry';
    const option = props.options.find((o) => o.value === typed || (o.aliases ?? []).includes(typed));
    if (option === undefined && props.allowOther !== true) {
      setNote(`“${typed}” is not a known ${noun}: pick one from the suggestions.`);
      return;
    }
    const v = option?.value ?? typed;
    setNote(option === undefined ? `“${typed}” is not a configured ${noun}; it is kept in the list.` : null);
    setPick('');
    if (!current.includes(v)) props.onChange([...current, v]);
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
            // Text typed and left is added (or refused with the message), never silently lost.
            onBlur={add}
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
      <p class="warn-text small" role="status">
        {note}
      </p>
      {props.invalid === null || props.invalid === undefined ? null : <p class="field-error">{props.invalid}</p>}
    </fieldset>
  );
}
