import { isRecord } from '../../../canonical/json.js';
import type { VendorError } from '../../../upstream/index.js';

/**
 * Reads the message and vendor code out of an OpenAI-style error body: OpenAI
 * `{error:{message,type,code,param}}`, OpenRouter `{error:{code:int,message,metadata}}` (its
 * `provider_code` wins), and the plain `{message}` / `{error:"..."}` of smaller vendors and proxies.
 */
export function readOpenAiError(body: unknown): VendorError {
  if (!isRecord(body)) return { message: null, code: null };
  const error = body.error;
  if (typeof error === 'string') return { message: error, code: null };
  if (isRecord(error)) {
    const message = typeof error.message === 'string' ? error.message : null;
    let code: string | number | null = null;
    if (typeof error.code === 'string' || typeof error.code === 'number') code = error.code;
    else if (typeof error.type === 'string') code = error.type;
    if (isRecord(error.metadata)) {
      const pc = error.metadata.provider_code;
      if (typeof pc === 'string' || typeof pc === 'number') code = pc;
    }
    return { message, code };
  }
  return { message: typeof body.message === 'string' ? body.message : null, code: null };
}
