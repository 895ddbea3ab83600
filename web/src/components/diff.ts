// Line diff by longest common subsequence; the texts compared (preset configs) are small, so the
// quadratic table is cheap and keeps a dependency out of the bundle.

export interface DiffLine {
  kind: 'same' | 'add' | 'del';
  text: string;
}

export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] = a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i] ?? '' });
      i++;
      j++;
    } else if ((lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0)) out.push({ kind: 'del', text: a[i++] ?? '' });
    else out.push({ kind: 'add', text: b[j++] ?? '' });
  }
  while (i < n) out.push({ kind: 'del', text: a[i++] ?? '' });
  while (j < m) out.push({ kind: 'add', text: b[j++] ?? '' });
  return out;
}

/** Stable JSON (keys sorted) so a diff shows changed values, not reordered keys. */
export function stableJson(v: unknown): string {
  const sort = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sort);
    if (typeof x === 'object' && x !== null)
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, sort((x as Record<string, unknown>)[k])]),
      );
    return x;
  };
  return JSON.stringify(sort(v), null, 2);
}
