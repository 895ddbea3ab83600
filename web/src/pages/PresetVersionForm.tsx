import { useState } from 'preact/hooks';
import { ApiError, post } from '../api/client.js';
import type { Model, PresetVersion, PresetWithVersion } from '../api/types.js';
import { useAction } from '../components/hooks.js';
import { ErrorBox, fieldError, TextField, FormActions } from '../components/ui.js';
import { Diff, versionText } from './PresetDiff.js';

export interface PresetVersionFormProps {
  workspaceId: string;
  /** Editing an existing preset: its slug and the designated version the form starts from. */
  slug: string | null;
  designated: PresetVersion | null;
  models: Model[];
  onSaved: (p: PresetWithVersion) => void;
  onCancel: () => void;
}

const SLUG = /^[A-Za-z0-9._~-]{1,100}$/;

function paramsOf(config: Record<string, unknown> | undefined): string {
  const rest = Object.fromEntries(Object.entries(config ?? {}).filter(([k]) => k !== 'model'));
  return Object.keys(rest).length === 0 ? '{}' : JSON.stringify(rest, null, 2);
}

function parseParams(text: string): Record<string, unknown> | string {
  try {
    const v: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'Parameters must be a JSON object.';
    return v as Record<string, unknown>;
  } catch (e) {
    return `Parameters are not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/**
 * A new preset version (or a new preset): model, parameters as JSON, system prompt, with a diff
 * against the designated version before it is saved. Saving designates the new version at once
 * (POST /presets/{slug}/chat/completions).
 */
export function PresetVersionForm(props: PresetVersionFormProps) {
  const [slug, setSlug] = useState(props.slug ?? '');
  const [model, setModel] = useState(() => {
    const m = props.designated?.config['model'];
    return typeof m === 'string' ? m : '';
  });
  const [params, setParams] = useState(paramsOf(props.designated?.config));
  const [prompt, setPrompt] = useState(props.designated?.system_prompt ?? '');
  const action = useAction();
  const parsed = parseParams(params);
  const draft =
    typeof parsed === 'string'
      ? null
      : { config: { ...parsed, ...(model === '' ? {} : { model }) }, system_prompt: prompt };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (draft === null) return;
    const body = {
      ...draft.config,
      messages: prompt === '' ? [] : [{ role: 'system', content: prompt }],
    };
    const res = await action.run(async () => {
      if (!SLUG.test(slug)) throw new ApiError(400, 'slug: 1–100 letters, digits, - . _ ~', { field: 'slug' });
      return post<{ data: PresetWithVersion }>(`/presets/${encodeURIComponent(slug)}/chat/completions`, body, {
        query: { workspace_id: props.workspaceId },
      });
    });
    if (res !== undefined) props.onSaved(res.data);
  };

  const err = action.error;
  return (
    <form onSubmit={(e) => void submit(e)} aria-label={props.slug === null ? 'New preset' : 'New version'}>
      <ErrorBox error={err} />
      <div class="row">
        {props.slug === null ? <TextField label="Slug" field="slug" value={slug} onInput={setSlug} err={err} /> : null}
        <label>
          Model
          <input
            list="preset-models"
            value={model}
            onInput={(e) => setModel(e.currentTarget.value)}
            aria-invalid={fieldError(err, 'model') !== null}
          />
          <datalist id="preset-models">
            {props.models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </datalist>
        </label>
      </div>
      <label>
        Parameters (JSON)
        <textarea
          class="mono"
          value={params}
          onInput={(e) => setParams(e.currentTarget.value)}
          aria-invalid={typeof parsed === 'string'}
        />
      </label>
      {typeof parsed === 'string' ? <p class="field-error">{parsed}</p> : null}
      <label>
        System prompt
        <textarea value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
      </label>
      <h3>Changes against the designated version</h3>
      {draft === null ? null : props.designated === null ? (
        <p class="muted small">No designated version yet: this becomes version 1.</p>
      ) : (
        <Diff from={versionText(props.designated)} to={versionText(draft)} testId="draft-diff" />
      )}
      <FormActions
        submit={props.slug === null ? 'Create preset' : 'Save as new version'}
        disabled={action.busy || draft === null}
        onCancel={props.onCancel}
      />
    </form>
  );
}
