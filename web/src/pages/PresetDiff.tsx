import type { PresetVersion } from '../api/types.js';
import { diffLines, stableJson } from '../components/diff.js';

/** What a diff compares of a version: its config with sorted keys, then its system prompt. */
export const versionText = (v: Pick<PresetVersion, 'config' | 'system_prompt'>) =>
  `${stableJson(v.config)}\n--- system prompt ---\n${v.system_prompt}`;

/** A line diff between two version texts: removed lines marked −, added +. */
export function Diff({ from, to, testId }: { from: string; to: string; testId?: string }) {
  const lines = diffLines(from, to);
  const changed = lines.filter((l) => l.kind !== 'same').length;
  return (
    <>
      <p class="muted small">
        {changed === 0
          ? 'The two versions are identical.'
          : `${changed} changed line(s): removed lines are marked −, added +.`}
      </p>
      <pre class="diff" data-testid={testId ?? 'preset-diff'}>
        {lines.map((l, i) => (
          <span key={i} class={l.kind === 'same' ? undefined : l.kind}>
            {l.kind === 'add' ? '+ ' : l.kind === 'del' ? '− ' : '  '}
            {l.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </>
  );
}
