import { parseArgs } from 'node:util';

/**
 * Command line of a bench that compares this build with another build's `dist/` in one process:
 * `--base <dir>` (required) and numeric options with their defaults.
 */
export function vsBaseArgs<K extends string>(defaults: Record<K, number>): { base: string } & Record<K, number> {
  const names = Object.keys(defaults) as K[];
  const options: Record<string, { type: 'string' }> = { base: { type: 'string' } };
  for (const name of names) options[name] = { type: 'string' };
  const { values } = parseArgs({ options });
  const base = values.base;
  if (typeof base !== 'string') throw new Error('--base <dist dir of the build to compare against> is required');
  const out = { base } as { base: string } & Record<K, number>;
  for (const name of names) {
    const given = values[name];
    (out as Record<K, number>)[name] = typeof given === 'string' ? Number(given) : defaults[name];
  }
  return out;
}
