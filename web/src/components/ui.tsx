import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/client.js';
import type { Loaded } from './hooks.js';

/** An error from the API (its envelope message) or a network failure, announced to screen readers. */
export function ErrorBox({ error }: { error: unknown }) {
  if (error === null || error === undefined || error === '') return null;
  const text = typeof error === 'string' ? error : messageOf(error);
  const status = error instanceof ApiError && error.status > 0 ? `${error.status}: ` : '';
  return (
    <div class="alert error" role="alert">
      {status}
      {text}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** A modal built on <dialog>: focus moves in on open and back on close; Escape closes it. */
export function Modal(props: { title: string; open: boolean; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // The dialog's close event arrives after a render that may already have opened another dialog:
  // only a close the user made (Escape) is reported, never one this component made itself.
  const openRef = useRef(props.open);
  openRef.current = props.open;
  const onCloseRef = useRef(props.onClose);
  onCloseRef.current = props.onClose;
  useEffect(() => {
    const d = ref.current;
    if (d === null) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={() => {
        if (openRef.current) onCloseRef.current();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.open ? props.children : null}
    </dialog>
  );
}

/** A secret shown once, with a copy button. */
export function TokenReveal({ token, what }: { token: string; what: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copy failed: select the text and copy it by hand.');
    }
  };
  return (
    <div>
      <p>
        <strong>{what}</strong> This is the only time it is shown: store it now.
      </p>
      <div class="token">
        <code data-testid="new-token">{token}</code>
        <button type="button" class="primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p role="status" class="small">
        {copied}
      </p>
    </div>
  );
}

/** A usage bar: value against limit, red when 90 % or more is used. */
export function Meter({ used, limit, label }: { used: number; limit: number | null; label: string }) {
  if (limit === null) return <span class="muted small">no limit</span>;
  const ratio = limit === 0 ? 1 : Math.min(1, used / limit);
  const hot = ratio >= 0.9;
  return (
    <div
      class={`meter${hot ? ' hot' : ''}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={limit}
      aria-valuenow={Math.min(used, limit)}
    >
      <span style={{ width: `${(ratio * 100).toFixed(1)}%` }} />
    </div>
  );
}

export function Badge({ tone, children }: { tone?: 'ok' | 'bad' | 'warn'; children: ComponentChildren }) {
  return <span class={`badge${tone === undefined ? '' : ` ${tone}`}`}>{children}</span>;
}

/** The field error for `name` when an ApiError names that body field. */
export function fieldError(error: unknown, name: string): string | null {
  if (error instanceof ApiError && error.field !== null && (error.field === name || error.field.startsWith(`${name}[`)))
    return error.message;
  return null;
}

/**
 * The state of a load: its error with a Retry button (a network error or a 5xx can pass), or
 * "Loading …" while nothing has arrived yet; never both at once.
 */
export function LoadStatus({ state, what }: { state: Loaded<unknown>; what: string }) {
  if (state.error !== null)
    return (
      <div class="alert error" role="alert">
        {state.error}{' '}
        <button type="button" onClick={state.reload} disabled={state.loading}>
          Retry<span class="skip"> loading {what}</span>
        </button>
      </div>
    );
  if (state.loading && state.data === null) return <Loading what={what} />;
  return null;
}

/** A long name cut to one line with an ellipsis; the whole text is in the title (and read out). */
export function Truncated({ text, class: cls }: { text: string; class?: string }) {
  return (
    <span class={`trunc${cls === undefined ? '' : ` ${cls}`}`} title={text}>
      {text}
    </span>
  );
}

/**
 * A table's horizontally scrolling box. It is a named, focusable region so that a keyboard user
 * can scroll a table wider than the window even when no cell holds a link (e.g. while names load).
 */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A status banner after a change succeeded ("Saved …"); nothing when there is no message. */
export function Notice({ text }: { text: string | null }) {
  if (text === null) return null;
  return (
    <p class="alert ok" role="status">
      {text}
    </p>
  );
}

/**
 * A required text field marked invalid when a 400 names `field`. No maxLength: the browser would cut
 * a pasted value silently, while the API refuses one over its limit with a message.
 */
export function TextField(props: {
  label: string;
  field: string;
  value: string;
  onInput: (value: string) => void;
  err: unknown;
  hint?: string;
}) {
  return (
    <label>
      {props.label}
      <input
        required
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        aria-invalid={fieldError(props.err, props.field) !== null}
      />
      {props.hint === undefined ? null : <span class="muted small">{props.hint}</span>}
    </label>
  );
}

/** A dialog form's submit and Cancel buttons. */
export function FormActions(props: { submit: string; disabled: boolean; onCancel: () => void }) {
  return (
    <p class="row">
      <button class="primary" type="submit" disabled={props.disabled}>
        {props.submit}
      </button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </p>
  );
}
