/**
 * A small path-tracking reader over plain JSON values. Every problem becomes a ConfigIssue that
 * names the path (`models[2].endpoints[0].provider`); the loader later turns the path into a line
 * number of the source file. `null` counts as "absent" (an empty YAML value is null).
 */
export type ConfigPath = readonly (string | number)[];
import { isRecord } from '../canonical/json.js';

export interface ConfigIssue {
  readonly path: ConfigPath;
  readonly message: string;
  /** Point at the key of the last path segment rather than at its value. */
  readonly atKey?: boolean;
}

export function formatPath(path: ConfigPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? '(root)' : out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

interface StringOptions {
  required?: boolean;
  pattern?: RegExp;
  patternHint?: string;
  oneOf?: readonly string[];
}

interface NumberOptions {
  required?: boolean;
  integer?: boolean;
  min?: number;
  /** Reject 0 as well (min is exclusive). */
  positive?: boolean;
}

export class ObjectReader {
  constructor(
    readonly value: Record<string, unknown>,
    readonly path: ConfigPath,
    readonly issues: ConfigIssue[],
    allowedKeys: readonly string[],
  ) {
    for (const key of Object.keys(value)) {
      if (!allowedKeys.includes(key)) {
        issues.push({
          path: [...path, key],
          atKey: true,
          message: `unknown key "${key}" (allowed: ${allowedKeys.join(', ')})`,
        });
      }
    }
  }

  at(key: string): ConfigPath {
    return [...this.path, key];
  }

  present(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  private missing(key: string, required: boolean | undefined): undefined {
    if (required) this.issues.push({ path: this.path, message: `missing required key "${key}"` });
    return undefined;
  }

  fail(key: string, message: string): undefined {
    this.issues.push({ path: this.at(key), message });
    return undefined;
  }

  string(key: string, options: StringOptions = {}): string | undefined {
    if (!this.present(key)) return this.missing(key, options.required);
    const value = this.value[key];
    if (typeof value !== 'string') return this.fail(key, `must be a string, got ${describe(value)}`);
    if (value.trim() === '') return this.fail(key, 'must not be empty');
    if (options.oneOf && !options.oneOf.includes(value)) {
      return this.fail(key, `must be one of ${options.oneOf.join(', ')}, got "${value}"`);
    }
    if (options.pattern && !options.pattern.test(value)) {
      return this.fail(key, `"${value}" is not ${options.patternHint ?? `matching ${String(options.pattern)}`}`);
    }
    return value;
  }

  boolean(key: string): boolean | undefined {
    if (!this.present(key)) return undefined;
    const value = this.value[key];
    if (typeof value !== 'boolean') return this.fail(key, `must be true or false, got ${describe(value)}`);
    return value;
  }

  number(key: string, options: NumberOptions = {}): number | undefined {
    if (!this.present(key)) return this.missing(key, options.required);
    const value = this.value[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.fail(key, `must be a number, got ${describe(value)}`);
    }
    if (options.integer && !Number.isInteger(value)) return this.fail(key, `must be an integer, got ${value}`);
    if (options.positive && value <= 0) return this.fail(key, `must be greater than 0, got ${value}`);
    if (options.min !== undefined && value < options.min) {
      return this.fail(
        key,
        options.min === 0 ? `must not be negative, got ${value}` : `must be ≥ ${options.min}, got ${value}`,
      );
    }
    return value;
  }

  stringArray(key: string, options: StringOptions & { nonEmpty?: boolean } = {}): string[] | undefined {
    const items = this.array(key, options.required);
    if (items === undefined) return undefined;
    if (options.nonEmpty && items.length === 0) return this.fail(key, 'must not be an empty list');
    const out: string[] = [];
    for (const item of items) {
      const value = item.value;
      if (typeof value !== 'string' || value.trim() === '') {
        this.issues.push({ path: item.path, message: `must be a non-empty string, got ${describe(value)}` });
      } else if (options.oneOf && !options.oneOf.includes(value)) {
        this.issues.push({ path: item.path, message: `must be one of ${options.oneOf.join(', ')}, got "${value}"` });
      } else if (options.pattern && !options.pattern.test(value)) {
        this.issues.push({ path: item.path, message: `"${value}" is not ${options.patternHint ?? 'valid'}` });
      } else {
        out.push(value);
      }
    }
    return out;
  }

  array(key: string, required?: boolean): { value: unknown; path: ConfigPath }[] | undefined {
    if (!this.present(key)) return this.missing(key, required);
    const value = this.value[key];
    if (!Array.isArray(value)) return this.fail(key, `must be a list, got ${describe(value)}`);
    return value.map((item, index) => ({ value: item as unknown, path: [...this.path, key, index] }));
  }

  object(key: string, allowedKeys: readonly string[], required?: boolean): ObjectReader | undefined {
    if (!this.present(key)) return this.missing(key, required);
    return readObject(this.value[key], this.at(key), this.issues, allowedKeys);
  }

  /** A mapping of string → string (e.g. extra headers). */
  stringMap(key: string): Record<string, string> | undefined {
    if (!this.present(key)) return undefined;
    const value = this.value[key];
    if (!isRecord(value)) return this.fail(key, `must be a mapping, got ${describe(value)}`);
    const out: Record<string, string> = {};
    for (const [name, item] of Object.entries(value)) {
      if (typeof item !== 'string') {
        this.issues.push({ path: [...this.path, key, name], message: `must be a string, got ${describe(item)}` });
      } else {
        out[name] = item;
      }
    }
    return out;
  }
}

export function readObject(
  value: unknown,
  path: ConfigPath,
  issues: ConfigIssue[],
  allowedKeys: readonly string[],
): ObjectReader | undefined {
  if (!isRecord(value)) {
    issues.push({ path, message: `must be a mapping, got ${describe(value)}` });
    return undefined;
  }
  return new ObjectReader(value, path, issues, allowedKeys);
}
