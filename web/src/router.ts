// A hash router: `#/keys?q=ci` → { path: '/keys', query }. Hash routes need no server fallback
// for deep links, and the page URL under /console/ stays the one the gateway serves.
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  path: string;
  segments: string[];
  query: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  return { path: `/${segments.join('/')}`, segments, query };
}

/** The current route; re-renders on every hash change. */
export function useRoute(): Route {
  const [state, setState] = useState(() => ({ hash: location.hash, route: parseHash(location.hash) }));
  useEffect(() => {
    const onChange = () =>
      setState((s) => (s.hash === location.hash ? s : { hash: location.hash, route: parseHash(location.hash) }));
    addEventListener('hashchange', onChange);
    // A hash changed between the first render and this subscription fired no event we heard.
    onChange();
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return state.route;
}

/** `href('/keys', {q: 'ci'})` → `#/keys?q=ci` (empty values left out). */
export function href(path: string, query: Record<string, string | null | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, v);
  const qs = params.toString();
  return `#${path}${qs === '' ? '' : `?${qs}`}`;
}

export function navigate(path: string, query: Record<string, string | null | undefined> = {}): void {
  location.hash = href(path, query);
}
