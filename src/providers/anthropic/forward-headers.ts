import type { WireTarget } from '../wire-target.js';

/**
 * The Messages target with the client's forwarded `anthropic-*` headers: the client's
 * `anthropic-version` replaces ours (its body is written for it), its `anthropic-beta` values are
 * added to those the endpoint configures (each once, in order). Without forwarded headers the
 * cached target is used as is.
 */
export function withForwardedHeaders(
  target: WireTarget,
  forwarded: Readonly<Record<string, string>> | undefined,
): WireTarget {
  if (forwarded === undefined || Object.keys(forwarded).length === 0) return target;
  const headers: Record<string, string> = { ...target.headers };
  const version = forwarded['anthropic-version'];
  if (version !== undefined && version !== '') headers['anthropic-version'] = version;
  const beta = forwarded['anthropic-beta'];
  if (beta !== undefined) {
    const own = headers['anthropic-beta'] ?? '';
    const values = [...own.split(','), ...beta.split(',')].map((v) => v.trim()).filter((v) => v !== '');
    if (values.length > 0) headers['anthropic-beta'] = [...new Set(values)].join(',');
  }
  return { ...target, headers };
}
