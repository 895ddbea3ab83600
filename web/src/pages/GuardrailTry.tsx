import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { post } from '../api/client.js';
import { useAction } from '../components/hooks.js';
import { Badge, ErrorBox } from '../components/ui.js';

interface ScanMatch {
  filter: string;
  action: 'redact' | 'block' | 'flag';
  start: number;
  end: number;
}

interface ScanResult {
  outcome: 'blocked' | 'redacted' | 'flagged' | 'clean';
  blocked_by: string | null;
  flags: string[];
  redactions: number;
  redacted_text: string | null;
  failed_filters: string[];
  matches: ScanMatch[];
}

const TONE = { blocked: 'bad', redacted: 'warn', flagged: 'warn', clean: 'ok' } as const;

/** The pasted text with each match marked by its action (overlaps: the earlier match wins). */
function highlight(text: string, matches: ScanMatch[]): ComponentChildren[] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const m of sorted) {
    if (m.start < at) continue;
    if (m.start > at) out.push(text.slice(at, m.start));
    out.push(
      <mark class={m.action} title={`${m.filter}: ${m.action}`}>
        {text.slice(m.start, m.end)}
        <span class="skip">
          {' '}
          ({m.filter}, {m.action})
        </span>
      </mark>,
    );
    at = m.end;
  }
  out.push(text.slice(at));
  return out;
}

/** "Try it": runs the saved guardrail's filters on pasted text; no model is called, nothing is stored. */
export function GuardrailTry({ guardrailId }: { guardrailId: string }) {
  const [text, setText] = useState('');
  const [role, setRole] = useState('user');
  const [result, setResult] = useState<{ text: string; scan: ScanResult } | null>(null);
  const action = useAction();
  const run = async (e: Event) => {
    e.preventDefault();
    const res = await action.run(() => post<{ data: ScanResult }>(`/guardrails/${guardrailId}/scan`, { text, role }));
    if (res !== undefined) setResult({ text, scan: res.data });
  };
  return (
    <div class="panel">
      <h2>Try it</h2>
      <form onSubmit={(e) => void run(e)}>
        <label>
          Text to scan
          <textarea value={text} maxLength={100000} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <div class="row">
          <label>
            As a message from
            <select value={role} onChange={(e) => setRole(e.currentTarget.value)}>
              <option value="user">user</option>
              <option value="system">system</option>
              <option value="assistant">assistant</option>
            </select>
          </label>
          <button type="submit" class="primary" disabled={text === '' || action.busy}>
            Run filters
          </button>
        </div>
      </form>
      <ErrorBox error={action.error} />
      {result === null ? null : (
        <div class="scan" role="status" data-testid="scan-result">
          <p>
            Outcome: <Badge tone={TONE[result.scan.outcome]}>{result.scan.outcome}</Badge>
            {result.scan.blocked_by === null ? null : (
              <>
                {' '}
                by <code>{result.scan.blocked_by}</code>
              </>
            )}
            {result.scan.redactions > 0 ? <> · {result.scan.redactions} redaction(s)</> : null}
            {result.scan.flags.length > 0 ? <> · flagged: {result.scan.flags.join(', ')}</> : null}
          </p>
          {result.scan.failed_filters.length > 0 ? (
            <p class="field-error">Filters that failed to run: {result.scan.failed_filters.join(', ')}</p>
          ) : null}
          <h3>Matches</h3>
          <pre class="diff">{highlight(result.text, result.scan.matches)}</pre>
          <h3>What the model would receive</h3>
          {result.scan.redacted_text === null ? (
            <p>Nothing: the request would be refused.</p>
          ) : (
            <pre class="diff" data-testid="redacted-text">
              {result.scan.redacted_text}
            </pre>
          )}
        </div>
      )}
    </div>
  );
}
