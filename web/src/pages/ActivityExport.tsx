import { useState } from 'preact/hooks';
import { get } from '../api/client.js';
import type { GenerationPage, GenerationRow } from '../api/analytics.js';
import { download, toCsv } from '../components/csv.js';
import { useAction } from '../components/hooks.js';
import { ErrorBox } from '../components/ui.js';

/** The most rows one export reads (200 per page): a bound on what a browser tab holds. */
export const EXPORT_MAX_ROWS = 50_000;

/** Downloads the generation log under the current filter as CSV, following the server's cursor. */
export function ActivityExport({ query }: { query: Record<string, string | number | undefined> }) {
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  const run = () =>
    void action.run(async () => {
      setNote(null);
      const rows: GenerationRow[] = [];
      let cursor: string | null = null;
      do {
        const page: GenerationPage = await get<GenerationPage>('/generations', {
          query: { ...query, limit: 200, cursor: cursor ?? undefined },
        });
        rows.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor !== null && rows.length < EXPORT_MAX_ROWS);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
      download(`switchyard-activity-${stamp}.csv`, toCsv(rows as unknown as Record<string, unknown>[]));
      setNote(
        cursor === null
          ? `Exported ${rows.length} generation(s).`
          : `Exported the newest ${rows.length} generations; narrow the filter for the rest.`,
      );
    });
  return (
    <>
      <button type="button" onClick={run} disabled={action.busy}>
        {action.busy ? 'Exporting…' : 'Export CSV'}
      </button>
      <span role="status" class="small muted">
        {note}
      </span>
      <ErrorBox error={action.error} />
    </>
  );
}
