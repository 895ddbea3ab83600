import type { Kysely, Selectable } from 'kysely';
import type { Database, MembersTable } from '../schema.js';
import type { MemberRecord, MemberRepository } from '../../domain/members/types.js';
import { countRows } from './convert.js';

function toRecord(row: Selectable<MembersTable>): MemberRecord {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
  };
}

export function createMemberRepository(db: Kysely<Database>): MemberRepository {
  return {
    async insert(m) {
      const row = await db
        .insertInto('members')
        .values({
          id: m.id,
          email: m.email,
          first_name: m.firstName,
          last_name: m.lastName,
          role: m.role,
          created_at: m.createdAt,
          disabled_at: m.disabledAt ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },
    async findById(id) {
      const row = await db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async findByEmail(email) {
      const row = await db.selectFrom('members').selectAll().where('email', '=', email).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async existing(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('members').select('id').where('id', 'in', ids).execute();
      return rows.map((r) => r.id);
    },
    async update(id, patch) {
      const set: { role?: MembersTable['role']; disabled_at?: string | null } = {};
      if (patch.role !== undefined) set.role = patch.role;
      if (patch.disabledAt !== undefined) set.disabled_at = patch.disabledAt;
      if (Object.keys(set).length === 0) return this.findById(id);
      const row = await db.updateTable('members').set(set).where('id', '=', id).returningAll().executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async list(page) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('members')
          .selectAll()
          .orderBy('created_at')
          .orderBy('id')
          .offset(page.offset)
          .limit(page.limit)
          .execute(),
        countRows(db.selectFrom('members')),
      ]);
      return { rows: rows.map(toRecord), total: count };
    },
  };
}
