import { isRecord, str } from '../../canonical/json.js';
import { fromHttpStatus, type UpstreamError, type VendorError } from '../../upstream/index.js';
import { utf8Text } from '../../upstream/framing/aws-eventstream.js';

/**
 * Bedrock's errors: the type rides in the `x-amzn-errortype` header (`ThrottlingException:http://…`)
 * with `{message}` as the body; inside an event stream it is an `exception` message whose
 * `:exception-type` names it in camel case. The type decides the status the gateway maps:
 * throttling is a 429 (the next endpoint serves), validation a 400 with Bedrock's message, a
 * refused credential (AccessDenied, UnrecognizedClient, an expired token) a 502 naming the
 * credential problem.
 */

const STATUS_BY_TYPE: Record<string, number> = {
  throttlingexception: 429,
  servicequotaexceededexception: 429,
  modelnotreadyexception: 429,
  validationexception: 400,
  resourcenotfoundexception: 404,
  accessdeniedexception: 403,
  unrecognizedclientexception: 403,
  expiredtokenexception: 403,
  invalidsignatureexception: 403,
  modeltimeoutexception: 408,
  serviceunavailableexception: 503,
  internalserverexception: 500,
  modelstreamerrorexception: 502,
  modelerrorexception: 502,
};

/** The error type of a header value or exception name (`ThrottlingException`), without its namespace. */
export function bedrockErrorType(value: string | string[] | undefined): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === '') return null;
  const type = first.split(':')[0]?.trim() ?? '';
  return type === '' ? null : type;
}

/** A reader of the error body, knowing the type from the response's header: the type, when known, decides the status mapped. */
export function bedrockErrorReader(type: string | null): (body: unknown) => VendorError {
  return (body) => {
    const message = isRecord(body) ? (str(body.message) ?? str(body.Message) ?? null) : null;
    const code = type ?? (isRecord(body) ? (str(body.__type) ?? null) : null);
    return type === null ? { message, code } : { message, code, status: bedrockErrorStatus(type) };
  };
}

/** The HTTP status an error type stands for (a type Bedrock may add later: a server error). */
export function bedrockErrorStatus(type: string): number {
  return STATUS_BY_TYPE[type.toLowerCase()] ?? 500;
}

/** An `exception` (or `error`) message inside an event stream → the UpstreamError it is. */
export function bedrockStreamError(options: {
  type: string;
  body: Uint8Array;
  providerId: string;
  apiKey: string | null;
}): UpstreamError {
  let message: string | null = null;
  try {
    const parsed = JSON.parse(utf8Text(options.body)) as unknown;
    if (isRecord(parsed)) message = str(parsed.message) ?? str(parsed.Message) ?? null;
  } catch {
    message = null;
  }
  return fromHttpStatus({
    kind: 'stream',
    providerId: options.providerId,
    apiKey: options.apiKey,
    upstreamStatus: bedrockErrorStatus(options.type),
    upstreamMessage: message,
    providerCode: options.type,
  });
}
