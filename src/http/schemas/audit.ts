import { Type } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';

export const AuditRecordObject = Type.Object(
  {
    id: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    action: Type.String(),
    target: Type.Object({ type: Type.String(), id: Type.String() }),
    actor: Type.Object({
      type: Type.Union([Type.Literal('key'), Type.Literal('cli'), Type.Literal('console'), Type.Literal('system')]),
      member_id: Nullable(Type.String()),
      email: Nullable(Type.String()),
      key_hash: Nullable(Type.String()),
    }),
    changes: Nullable(Type.Object({}, { additionalProperties: true })),
  },
  { $id: 'AuditRecord' },
);

const text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 500, description }));

export const AuditLogQuery = Type.Object(
  {
    action: text('e.g. key.create, guardrail.update'),
    target_type: text('key, member, workspace, guardrail, preset'),
    target_id: text('the target id (key hash, guardrail id, …)'),
    actor: text('member id, email, key hash, or cli / system / console'),
    since: text('ISO-8601; records at or after'),
    until: text('ISO-8601; records before'),
    cursor: text('next_cursor of the previous page'),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  },
  { additionalProperties: false },
);

export const AuditLogList = Type.Object({
  data: Type.Array(Type.Ref(AuditRecordObject)),
  next_cursor: Nullable(Type.String()),
});
