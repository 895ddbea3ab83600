import Database from 'better-sqlite3';
import pg from 'pg';

/** Reads every table of the server's database, for before/after comparisons. */
export interface StateReader {
  /** Table name → its rows, each as JSON text, sorted (row order is not state). */
  snapshot(): Promise<Map<string, string[]>>;
  close(): Promise<void>;
}

const rowText = (row: unknown) =>
  JSON.stringify(row, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? v.toString('hex') : v,
  );

export async function openStateReader(databaseUrl: string, ignore: ReadonlySet<string>): Promise<StateReader> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    const tables = () =>
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
        .map((t) => t.name)
        .filter((name) => !ignore.has(name));
    return {
      snapshot: () =>
        Promise.resolve(
          new Map(tables().map((name) => [name, db.prepare(`SELECT * FROM "${name}"`).all().map(rowText).sort()])),
        ),
      close: () => Promise.resolve(void db.close()),
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    snapshot: async () => {
      const { rows } = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
      );
      const out = new Map<string, string[]>();
      for (const { table_name: name } of rows) {
        if (ignore.has(name)) continue;
        const result = await client.query(`SELECT * FROM "${name}"`);
        out.set(name, result.rows.map(rowText).sort());
      }
      return out;
    },
    close: () => client.end(),
  };
}

/** The tables whose rows differ between two snapshots, with a short sample of the difference. */
export function stateDiff(before: Map<string, string[]>, after: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(name) ?? [];
    const b = after.get(name) ?? [];
    if (a.length === b.length && a.every((row, i) => row === b[i])) continue;
    const gone = a.filter((row) => !b.includes(row));
    const added = b.filter((row) => !a.includes(row));
    out.push(`${name}: -${gone.length} +${added.length} ${(added[0] ?? gone[0] ?? '').slice(0, 200)}`);
  }
  return out;
}

const ROLLUP_TABLES = ['usage_rollups', 'usage_rollups_daily'];

/**
 * `after` without the record a refused model call leaves on purpose (docs/metering.md, "Refused
 * calls"): generation rows new since `before` that are refusals, and the rollup sums they moved.
 * Any other change (a served generation, a spend counter, a key) stays visible.
 */
export function withoutRefusalRecords(
  before: Map<string, string[]>,
  after: Map<string, string[]>,
): Map<string, string[]> {
  const known = new Set(before.get('generations') ?? []);
  const rows = after.get('generations') ?? [];
  const kept = rows.filter(
    (row) => known.has(row) || (JSON.parse(row) as { refusal_status?: unknown }).refusal_status == null,
  );
  if (kept.length === rows.length) return after;
  const out = new Map(after);
  out.set('generations', kept);
  for (const table of ROLLUP_TABLES) out.set(table, before.get(table) ?? []);
  return out;
}
