import { Type } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';

const OrgRoleSchema = Type.Union([Type.Literal('org:owner'), Type.Literal('org:admin'), Type.Literal('org:member')]);

/** An organization member as answered. */
export const MemberObject = Type.Object(
  {
    email: Type.String(),
    first_name: Nullable(Type.String()),
    id: Type.String(),
    last_name: Nullable(Type.String()),
    role: Type.String(),
    /** Disabled members cannot sign in to the console. */
    disabled: Type.Boolean(),
  },
  { $id: 'Member' },
);

export const CreateMemberBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    first_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    last_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    role: Type.Optional(OrgRoleSchema),
  },
  { additionalProperties: false },
);

export const MemberParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** `PATCH /organization/members/{id}`: the organization role and whether the member is disabled. */
export const UpdateMemberBody = Type.Object(
  { role: Type.Optional(OrgRoleSchema), disabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const WorkspaceMemberParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  user_id: Type.String({ minLength: 1, maxLength: 100 }),
});

/** `PATCH /workspaces/{id}/members/{user_id}`: the member's role in that workspace. */
export const WorkspaceRoleBody = Type.Object(
  { role: Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')]) },
  { additionalProperties: false },
);
