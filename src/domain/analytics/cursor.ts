import { errors } from '../../errors/index.js';
import type { GenerationCursor } from './types.js';

/** Opaque to clients: base64url of `[created_at, id]` of the last row of the previous page. */
export function encodeCursor(cursor: GenerationCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

/** 400 for anything that is not a cursor this server handed out. */
export function decodeCursor(text: string): GenerationCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    value = null;
  }
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'string' &&
    value[0].length <= 40 &&
    value[1].length <= 200
  )
    return { createdAt: value[0], id: value[1] };
  throw errors.invalidRequest('cursor: not a cursor from a previous page', { field: 'cursor' });
}
