/**
 * JSON text as a hostile client writes it: values JSON.stringify cannot produce (1e309,
 * 99999999999999999999, 1e-400, nesting 10,000 deep) are carried as `RawJson` and written verbatim.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export function toWireJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toWireJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toWireJson(v)}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The text form of a query or path value (RawJson verbatim). */
export function toWireText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

const deep = (n: number) => new RawJson(`${'{"x":'.repeat(n)}1${'}'.repeat(n)}`);

/** Numbers no validator should let through, as JSON text. */
export const HOSTILE_NUMBERS: unknown[] = [
  new RawJson('1e309'),
  new RawJson('-1e309'),
  new RawJson('99999999999999999999'),
  new RawJson('-99999999999999999999'),
  new RawJson('1e-400'),
  new RawJson('-0'),
  2 ** 53 + 2,
  Number.MAX_VALUE,
  -1,
  0,
  0.5,
];

/** Strings that stress storage, logging and parsing. */
export const HOSTILE_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x'.repeat(70_000),
  '../../etc/passwd',
  "'; DROP TABLE keys; --",
  '%00',
  '%E0%A4%A',
  '<script>alert(1)</script>',
  '\u202eevil',
  '🚀'.repeat(8),
  'null',
  '1e309',
  '{}',
];

/** Any-position values: wrong types, empty containers, deep nesting, long arrays. */
export const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_NUMBERS,
  ...HOSTILE_STRINGS,
  null,
  true,
  [],
  {},
  [null],
  new RawJson('{"__proto__":{"admin":true}}'),
  deep(70),
  deep(10_000),
  new RawJson(`[${'[1],'.repeat(5000)}[1]]`),
];

/** Whole bodies that are not a JSON object at all. */
export const HOSTILE_BODY_TEXTS: string[] = [
  '',
  '{',
  '{"a":}',
  'null',
  '[]',
  '"text"',
  '1e309',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  deep(10_000).text,
  // An escape takes the parser's reviver path, which recurses.
  `{"a":"\\u0041","x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
  '\u0000',
];

/** Path segments: unknown ids, NUL, malformed percent-encoding, over-long, traversal. */
export const HOSTILE_PATH_SEGMENTS: string[] = [
  'does-not-exist',
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%',
  'x'.repeat(5000),
  '..',
  '%2e%2e',
  '0',
  '-1',
  '1e309',
  '99999999999999999999',
  "'",
  '%F0%9F%9A%80',
];

/** Query values, as text. */
export const HOSTILE_QUERY_VALUES: string[] = [
  '1e309',
  '-1e309',
  '99999999999999999999',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  'abc',
  '',
  '\u0000',
  'a\u0000b',
  'true',
  'x'.repeat(3000),
];
