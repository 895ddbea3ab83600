/**
 * Finds the source line of a config path in a parsed YAML (or JSON) document, so that a
 * validation issue reads `config.yaml:14: models[2].endpoints[0].provider: …`.
 */
import { type Document, type LineCounter, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { ConfigPath } from './config-reader.js';

interface Ranged {
  range?: [number, number, number] | null;
}

function rangeStart(node: unknown): number | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const range = (node as Ranged).range;
  return range ? range[0] : undefined;
}

/**
 * The 1-based line of `path`: of the key itself when `atKey`, else of its value. When a segment
 * does not exist (a missing key), the line of the deepest existing ancestor.
 */
export function lineOf(doc: Document, counter: LineCounter, path: ConfigPath, atKey = false): number | undefined {
  let node: unknown = doc.contents;
  let best = rangeStart(node);
  for (let i = 0; i < path.length; i += 1) {
    const segment = path[i];
    const last = i === path.length - 1;
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (!pair) break;
      const keyStart = rangeStart(pair.key);
      if (last && atKey && keyStart !== undefined) return counter.linePos(keyStart).line;
      next = pair.value;
      // An empty value (`key:`) has no useful position of its own: use the key's.
      const valueStart = rangeStart(next);
      best = valueStart === undefined || (isScalar(next) && next.value === null) ? (keyStart ?? best) : valueStart;
      node = next;
      continue;
    }
    if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
      if (next === undefined) break;
      best = rangeStart(next) ?? best;
      node = next;
      continue;
    }
    break;
  }
  return best === undefined ? undefined : counter.linePos(best).line;
}
