/** Number formats of the benchmark's Markdown reports ('—' for a figure that was not measured). */
export const f = (v: number, digits: number): string => (Number.isFinite(v) ? v.toFixed(digits) : '—');
export const int = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');
export const signed = (v: number, digits: number): string =>
  Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(digits)}` : '—';
