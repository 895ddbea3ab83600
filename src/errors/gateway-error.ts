/**
 * The one error type of the gateway. Everything that reaches a client as an error is a
 * GatewayError rendered by the single renderer in `render.ts`; factories live in `codes.ts`.
 */
export type ErrorMetadata = Record<string, unknown>;

export class GatewayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly metadata: ErrorMetadata | null;
  readonly headers: Record<string, string>;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    metadata?: ErrorMetadata | null;
    headers?: Record<string, string>;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.status = options.status;
    this.code = options.code;
    this.metadata = options.metadata ?? null;
    this.headers = options.headers ?? {};
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}
