import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `<dir>/<kind>-<UTC timestamp>.md` and returns its path. */
export function writeResult(dir: string, kind: string, markdown: string): string {
  mkdirSync(dir, { recursive: true });
  const stamp = new Date()
    .toISOString()
    .replace(/[:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const path = join(dir, `${kind}-${stamp}.md`);
  writeFileSync(path, markdown);
  return path;
}
