import type { SelectQueryBuilder } from 'kysely';

/** Column conversions shared by every repository (one representation on both dialects). */
export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: number | boolean | null): boolean => value === true || value === 1;

export function toJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

export function fromJson<T>(value: string | null): T | null {
  return value === null ? null : (JSON.parse(value) as T);
}

/** `count(*)` is a bigint (string) on PostgreSQL and a number on SQLite. */
export function toCount(value: string | number | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/** Number of rows a (filtered, unpaged) query matches: the `total_count` of a list page. */
export async function countRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return toCount((row as { n?: string | number } | undefined)?.n);
}
