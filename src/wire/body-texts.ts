import { isRecord, type JsonRecord } from '../canonical/json.js';
import type { NativeTexts, TextRole } from '../canonical/index.js';

/**
 * The texts of a client's body, each found at a path (object keys and array indexes), and a copy
 * of the body with some of them replaced: the containers on a changed path are copied, the rest
 * shared. A dialect's walk decides what a model reads; this keeps where each text sits.
 */
export type Path = readonly (string | number)[];

const MAX_INPUT_DEPTH = 32;

export class BodyTexts {
  private readonly paths: Path[] = [];
  readonly segments: NativeTexts['segments'] = [];

  add(path: Path, role: TextRole, text: string): void {
    this.paths.push(path);
    this.segments.push({ role, text });
  }

  /** Each string inside a JSON value (a tool call's input or arguments): keys are schema names, not content. */
  leaves(value: unknown, path: Path, role: TextRole, depth = 0): void {
    if (typeof value === 'string') this.add(path, role, value);
    else if (depth >= MAX_INPUT_DEPTH) return;
    else if (Array.isArray(value)) value.forEach((v: unknown, i) => this.leaves(v, [...path, i], role, depth + 1));
    else if (isRecord(value))
      for (const [key, v] of Object.entries(value)) this.leaves(v, [...path, key], role, depth + 1);
  }

  /** The segments and the rewrite of `body` by them. */
  of<B extends JsonRecord>(body: B): { segments: NativeTexts['segments']; withTexts(changes: Changes): B } {
    return { segments: this.segments, withTexts: (changes) => rewrite(body, changes, this.paths) };
  }
}

type Changes = readonly { index: number; text: string }[];

function setAt(root: unknown, path: Path, text: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return text;
  if (Array.isArray(root) && typeof head === 'number') {
    const copy: unknown[] = root.slice();
    copy[head] = setAt(root[head], rest, text);
    return copy;
  }
  if (isRecord(root) && typeof head === 'string') return { ...root, [head]: setAt(root[head], rest, text) };
  return root;
}

function rewrite<B>(body: B, changes: Changes, paths: readonly Path[]): B {
  let out: unknown = body;
  for (const { index, text } of changes) {
    const path = paths[index];
    if (path !== undefined) out = setAt(out, path, text);
  }
  return out as B;
}
