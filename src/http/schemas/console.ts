import { Type } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';

export const SignInBody = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const SessionObject = Type.Object({
  csrf_token: Type.String(),
  /** A break-glass session's management key; null for a person's session. */
  key: Nullable(
    Type.Object({
      hash: Type.String(),
      name: Type.String(),
      label: Type.String(),
      workspace_id: Type.String(),
    }),
  ),
  /** A person's session (single sign-on): who, and the console roles they hold now; else null. */
  person: Nullable(
    Type.Object({
      member_id: Type.String(),
      email: Type.String(),
      name: Nullable(Type.String()),
      org_role: Nullable(Type.Union([Type.Literal('owner'), Type.Literal('admin')])),
      default_workspace_id: Type.String(),
      workspace_roles: Type.Array(
        Type.Object({
          workspace_id: Type.String(),
          role: Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')]),
        }),
      ),
    }),
  ),
  idle_timeout_ms: Type.Integer(),
  expires_at: Type.String(),
});

export const SessionEnvelope = Type.Object({ data: SessionObject });
export const SignedOut = Type.Object({ data: Type.Object({ signed_out: Type.Literal(true) }) });
