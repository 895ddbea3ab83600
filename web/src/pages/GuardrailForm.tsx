import { useState } from 'preact/hooks';
import { ApiError, patch, post } from '../api/client.js';
import type {
  BuiltinFilter,
  CustomFilter,
  Guardrail,
  LimitReset,
  Model,
  Provider,
  Workspace,
  ZdrFlag,
} from '../api/types.js';
import { ZDR_FLAGS } from '../api/types.js';
import { useAction } from '../components/hooks.js';
import { ListPicker } from '../components/ListPicker.js';
import { ErrorBox, fieldError } from '../components/ui.js';
import { BuiltinEditor, CustomEditor } from './FilterEditor.js';

const ZDR_LABELS: Record<ZdrFlag, string> = {
  enforce_zdr_vendor_a: 'Vendor A (anthropic by default)',
  enforce_zdr_vendor_b: 'Vendor B (google by default)',
  enforce_zdr_vendor_c: 'Vendor C (openai by default)',
  enforce_zdr_vendor_d: 'Vendor D (xai by default)',
  enforce_zdr_other: 'Every other vendor',
};

type Tri = boolean | null;
const triValue = (v: Tri) => (v === null ? '' : v ? 'true' : 'false');
const triParse = (s: string): Tri => (s === '' ? null : s === 'true');

function TriSelect(props: { label: string; value: Tri; onChange: (v: Tri) => void }) {
  return (
    <label>
      {props.label}
      <select value={triValue(props.value)} onChange={(e) => props.onChange(triParse(e.currentTarget.value))}>
        <option value="">not set</option>
        <option value="true">ZDR endpoints only</option>
        <option value="false">off</option>
      </select>
    </label>
  );
}

export interface GuardrailFormProps {
  initial: Guardrail | null;
  workspaces: Workspace[];
  models: Model[];
  providers: Provider[];
  onSaved: (g: Guardrail) => void;
}

/** Create or edit every field of a guardrail; custom regexes are checked by RE2 before saving. */
export function GuardrailForm({ initial, workspaces, models, providers, onSaved }: GuardrailFormProps) {
  const [g, setG] = useState(() => ({
    name: initial?.name ?? '',
    description: initial?.description ?? '',
    workspace_id: initial?.workspace_id ?? workspaces[0]?.id ?? '',
    allowed_models: initial?.allowed_models ?? null,
    ignored_models: initial?.ignored_models ?? null,
    allowed_providers: initial?.allowed_providers ?? null,
    ignored_providers: initial?.ignored_providers ?? null,
    limit_usd: initial?.limit_usd === null || initial === null ? '' : String(initial.limit_usd),
    reset_interval: initial?.reset_interval ?? '',
    zdr: Object.fromEntries(ZDR_FLAGS.map((f) => [f, initial?.[f] ?? null])) as Record<ZdrFlag, Tri>,
    include_byok_in_budgets: initial?.include_byok_in_budgets ?? false,
    builtins: (initial?.content_filter_builtins ?? []).map(({ slug, action, scan_scope }): BuiltinFilter => ({
      slug,
      action,
      ...(scan_scope === undefined ? {} : { scan_scope }),
    })),
    customs: initial?.content_filters ?? ([] as CustomFilter[]),
  }));
  const [patternErrors, setPatternErrors] = useState<Record<number, string | null>>({});
  const action = useAction();
  const up = <K extends keyof typeof g>(k: K, v: (typeof g)[K]) => setG((s) => ({ ...s, [k]: v }));
  const livePatternError = Object.entries(patternErrors).some(([i, e]) => Number(i) < g.customs.length && e !== null);

  const modelOptions = models.map((m) => ({ value: m.canonical_slug, label: `${m.name} (${m.id})`, aliases: [m.id] }));
  const providerOptions = providers.map((p) => ({ value: p.slug, label: p.name, aliases: [p.name] }));

  const submit = async (e: Event) => {
    e.preventDefault();
    if (livePatternError) return;
    const body: Record<string, unknown> = {
      name: g.name,
      description: g.description === '' ? null : g.description,
      allowed_models: g.allowed_models,
      ignored_models: g.ignored_models,
      allowed_providers: g.allowed_providers,
      ignored_providers: g.ignored_providers,
      limit_usd: g.limit_usd === '' ? null : Number(g.limit_usd),
      reset_interval: g.reset_interval === '' ? null : g.reset_interval,
      ...g.zdr,
      include_byok_in_budgets: g.include_byok_in_budgets,
      content_filter_builtins: g.builtins.length === 0 ? null : g.builtins,
      content_filters: g.customs.length === 0 ? null : g.customs,
    };
    if (initial === null) body['workspace_id'] = g.workspace_id;
    const res = await action.run(() =>
      initial === null
        ? post<{ data: Guardrail }>('/guardrails', body)
        : patch<{ data: Guardrail }>(`/guardrails/${initial.id}`, body),
    );
    if (res !== undefined) onSaved(res.data);
  };

  const err = action.error;
  const serverPattern =
    err instanceof ApiError && err.field !== null
      ? (() => {
          const m = /^content_filters\[(\d+)\]\.pattern$/.exec(err.field);
          return m === null ? null : { index: Number(m[1]), message: err.message };
        })()
      : null;
  return (
    <form onSubmit={(e) => void submit(e)} aria-label={initial === null ? 'New guardrail' : `Edit ${initial.name}`}>
      {serverPattern === null ? <ErrorBox error={err} /> : null}
      <div class="row">
        <label>
          Name
          <input
            required
            maxLength={200}
            value={g.name}
            onInput={(e) => up('name', e.currentTarget.value)}
            aria-invalid={fieldError(err, 'name') !== null}
          />
        </label>
        <label>
          Description
          <input maxLength={1000} value={g.description} onInput={(e) => up('description', e.currentTarget.value)} />
        </label>
        {initial === null ? (
          <label>
            Workspace
            <select value={g.workspace_id} onChange={(e) => up('workspace_id', e.currentTarget.value)}>
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <div class="grid2">
        <ListPicker
          label="Allowed models"
          value={g.allowed_models}
          onChange={(v) => up('allowed_models', v)}
          options={modelOptions}
          noun="model"
          invalid={fieldError(err, 'allowed_models')}
        />
        <ListPicker
          label="Ignored models"
          value={g.ignored_models}
          onChange={(v) => up('ignored_models', v)}
          options={modelOptions}
          noun="model"
          invalid={fieldError(err, 'ignored_models')}
        />
        <ListPicker
          label="Allowed providers"
          value={g.allowed_providers}
          onChange={(v) => up('allowed_providers', v)}
          options={providerOptions}
          noun="provider"
          allowOther
        />
        <ListPicker
          label="Ignored providers"
          value={g.ignored_providers}
          onChange={(v) => up('ignored_providers', v)}
          options={providerOptions}
          noun="provider"
          allowOther
        />
      </div>
      <fieldset>
        <legend>Budget</legend>
        <div class="row">
          <label>
            Limit (USD)
            <input
              type="number"
              min="0"
              step="0.01"
              value={g.limit_usd}
              onInput={(e) => up('limit_usd', e.currentTarget.value)}
              aria-invalid={fieldError(err, 'limit_usd') !== null}
            />
          </label>
          <label>
            Resets
            <select
              value={g.reset_interval}
              onChange={(e) => up('reset_interval', e.currentTarget.value as LimitReset | '')}
              aria-invalid={fieldError(err, 'reset_interval') !== null}
            >
              <option value="">never</option>
              <option value="daily">daily</option>
              <option value="weekly">weekly</option>
              <option value="monthly">monthly</option>
            </select>
          </label>
          <label class="inline">
            <input
              type="checkbox"
              checked={g.include_byok_in_budgets}
              onChange={(e) => up('include_byok_in_budgets', e.currentTarget.checked)}
            />
            Count BYOK spend in budgets
          </label>
        </div>
      </fieldset>
      <fieldset>
        <legend>Zero data retention, per vendor</legend>
        <div class="row">
          {ZDR_FLAGS.map((f) => (
            <TriSelect
              key={f}
              label={ZDR_LABELS[f]}
              value={g.zdr[f]}
              onChange={(v) => up('zdr', { ...g.zdr, [f]: v })}
            />
          ))}
        </div>
      </fieldset>
      <BuiltinEditor value={g.builtins} onChange={(v) => up('builtins', v)} />
      <CustomEditor
        value={g.customs}
        onChange={(v) => up('customs', v)}
        serverError={serverPattern}
        onValidity={(i, e) => setPatternErrors((s) => (s[i] === e ? s : { ...s, [i]: e }))}
      />
      <p class="row">
        <button class="primary" type="submit" disabled={action.busy || livePatternError}>
          {initial === null ? 'Create guardrail' : 'Save changes'}
        </button>
        {livePatternError ? <span class="field-error">Fix the invalid pattern before saving.</span> : null}
      </p>
    </form>
  );
}
