// Display formats. Money is USD with enough digits for per-call costs.

export function usd(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  const digits = v !== 0 && Math.abs(v) < 0.01 ? 5 : 2;
  return `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: digits })}`;
}

export function num(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : v.toLocaleString('en-US');
}

export function pct(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`;
}

export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`;
}

/** ISO time → `2026-11-24 06:21:14` in UTC (the gateway's windows are UTC). */
export function when(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().replace('T', ' ').slice(0, 19);
}

export function shortHash(hash: string): string {
  return hash.length > 14 ? `${hash.slice(0, 10)}…` : hash;
}
