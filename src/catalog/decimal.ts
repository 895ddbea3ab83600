/**
 * Formats a price as a plain decimal string without exponent (`0.0000025`, not `2.5e-6`), as the
 * reference's per-token pricing strings are. Uses the shortest round-trip digits of the number,
 * so no float noise (`0.000002499999…`) appears.
 */
export function decimalString(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  if (value === 0) return '0';
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const intPart = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const digits = intPart + (dot < 0 ? '' : mantissa.slice(dot + 1));
  const point = intPart.length + exponent;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${out}` : out;
}
