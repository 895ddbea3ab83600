import type { GatewayError } from './gateway-error.js';

/** The error envelope `{"error":{"code","message"}}`. `error.code` always equals the HTTP status. */
export interface ErrorEnvelope {
  error: { code: number; message: string; metadata: Record<string, unknown> | null };
  user_id?: string | null;
}

export function renderError(error: GatewayError, userId?: string | null): ErrorEnvelope {
  const metadata = error.metadata === null ? null : { ...error.metadata };
  const envelope: ErrorEnvelope = {
    error: { code: error.status, message: error.message, metadata },
  };
  if (userId !== undefined) envelope.user_id = userId;
  return envelope;
}
