// Query plans of the console's reads (bench/analytics-bench.ts --explain): the statements the
// analytics repository sends are captured by a Kysely plugin, then explained on the same store.
import {
  CompiledQuery,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Database } from '../src/store/schema.js';

/** Records every statement run through the Kysely it is plugged into, compiled. */
export class QueryCapture implements KyselyPlugin {
  readonly queries: CompiledQuery[] = [];
  constructor(private readonly db: Kysely<Database>) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.queries.push(this.db.getExecutor().compileQuery(args.node, args.queryId));
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/** Each captured statement and its plan (SQLite: EXPLAIN QUERY PLAN; PostgreSQL: EXPLAIN ANALYZE). */
export async function explainAll(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  label: string,
  queries: readonly CompiledQuery[],
): Promise<string[]> {
  const out: string[] = [];
  for (const q of queries) {
    const prefix = dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ';
    const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + q.sql, [...q.parameters]));
    const lines = plan.rows.map((r) => String(dialect === 'sqlite' ? r['detail'] : r['QUERY PLAN']));
    out.push(`-- ${label}: ${q.sql.replace(/\s+/g, ' ')}`, ...lines.map((l) => `   ${l}`));
  }
  return out;
}
