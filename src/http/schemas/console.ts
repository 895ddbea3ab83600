import { Type } from '@sinclair/typebox';

export const SignInBody = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const SessionObject = Type.Object({
  csrf_token: Type.String(),
  key: Type.Object({
    hash: Type.String(),
    name: Type.String(),
    label: Type.String(),
    workspace_id: Type.String(),
  }),
  idle_timeout_ms: Type.Integer(),
  expires_at: Type.String(),
});

export const SessionEnvelope = Type.Object({ data: SessionObject });
export const SignedOut = Type.Object({ data: Type.Object({ signed_out: Type.Literal(true) }) });
