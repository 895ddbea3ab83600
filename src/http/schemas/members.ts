import { Type } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';

/** An organization member as answered. */
export const MemberObject = Type.Object(
  {
    email: Type.String(),
    first_name: Nullable(Type.String()),
    id: Type.String(),
    last_name: Nullable(Type.String()),
    role: Type.String(),
  },
  { $id: 'Member' },
);

export const CreateMemberBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    first_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    last_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    role: Type.Optional(Type.Union([Type.Literal('org:admin'), Type.Literal('org:member')])),
  },
  { additionalProperties: false },
);
