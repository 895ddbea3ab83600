import { useState } from 'preact/hooks';

export interface CursorTrail {
  /** The cursor of the page shown (null: the first page). */
  cursor: string | null;
  /** 1-based number of the page shown. */
  page: number;
  newer: (() => void) | null;
  older: (next: string) => void;
}

/**
 * The cursors of the pages before the current one, so "Newer" can go back without a reverse query;
 * a change of `filterKey` (the filters) starts again at the first page.
 */
export function useCursorTrail(filterKey: string): CursorTrail {
  const [trail, setTrail] = useState<{ filterKey: string; cursors: (string | null)[] }>({ filterKey, cursors: [null] });
  const cursors = trail.filterKey === filterKey ? trail.cursors : [null];
  return {
    cursor: cursors[cursors.length - 1] ?? null,
    page: cursors.length,
    newer: cursors.length > 1 ? () => setTrail({ filterKey, cursors: cursors.slice(0, -1) }) : null,
    older: (next) => setTrail({ filterKey, cursors: [...cursors, next] }),
  };
}

/** ← Newer · Page n · Older →, following the server's cursor; `next` undefined while loading. */
export function CursorPager({ trail, next }: { trail: CursorTrail; next: string | null | undefined }) {
  return (
    <nav class="row" aria-label="Pages">
      <button type="button" disabled={trail.newer === null} onClick={() => trail.newer?.()}>
        ← Newer
      </button>
      <span class="muted">Page {trail.page}</span>
      <button
        type="button"
        disabled={next === null || next === undefined}
        onClick={() => next !== null && next !== undefined && trail.older(next)}
      >
        Older →
      </button>
    </nav>
  );
}
