import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api/client.js';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` on mount and whenever `deps` change; a newer load wins over an older one. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const ctrl = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    loadRef.current(ctrl.signal).then(
      (data) => {
        if (!ctrl.signal.aborted) setState({ data, error: null, loading: false });
      },
      (e: unknown) => {
        if (!ctrl.signal.aborted) setState((s) => ({ data: s.data, error: messageOf(e), loading: false }));
      },
    );
    return () => ctrl.abort();
    // The caller lists what the load depends on; `tick` forces a reload.
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Runs an action, keeping its pending state and error message for the form that started it. */
export function useAction(): {
  busy: boolean;
  error: unknown;
  run: <T>(fn: () => Promise<T>) => Promise<T | undefined>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}

// A status message handed to the page a navigation opens (pages start fresh on every route, so
// "created" would otherwise be lost with the form that made it).
let pendingFlash: string | null = null;

export function flashNext(message: string): void {
  pendingFlash = message;
}

/** A page's status message, starting with the one flashed by the navigation that opened it. */
export function useFlash(): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(() => {
    const first = pendingFlash;
    pendingFlash = null;
    return first;
  });
  return [message, setMessage];
}
