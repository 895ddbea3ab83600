/**
 * Loads the catalog: the built-in default when no path is given, else the YAML or JSON file at
 * `path` (the value of SWITCHYARD_CONFIG). Every validation problem is collected and reported at
 * once as `file:line: path: message`; an unset key variable is a warning, not an error.
 */
import { readFile, stat } from 'node:fs/promises';
import { LineCounter, parseDocument } from 'yaml';
import { buildCatalog, type Env } from './build-catalog.js';
import { type ConfigIssue, formatPath } from './config-reader.js';
import { validateCatalogConfig } from './config-schema.js';
import { defaultCatalog } from './default-catalog.js';
import type { Catalog } from './types.js';
import { lineOf } from './yaml-locate.js';

export interface CatalogIssue {
  readonly file: string;
  /** 1-based line, or null when the problem has no place in the file. */
  readonly line: number | null;
  /** `models[2].endpoints[0].provider`, or `(root)`. */
  readonly path: string;
  readonly message: string;
}

function formatIssue(issue: CatalogIssue): string {
  const where = issue.line === null ? issue.file : `${issue.file}:${issue.line}`;
  return issue.path === '(root)' ? `${where}: ${issue.message}` : `${where}: ${issue.path}: ${issue.message}`;
}

/** The config is unusable. `message` lists every issue, one per line. */
export class CatalogConfigError extends Error {
  readonly issues: readonly CatalogIssue[];

  constructor(issues: readonly CatalogIssue[]) {
    super(`invalid catalog config:\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'CatalogConfigError';
    this.issues = issues;
  }

  /** The issues formatted `file:line: path: message`. */
  lines(): string[] {
    return this.issues.map(formatIssue);
  }
}

export interface ParseOptions {
  /** Shown in issues; usually the path as the user gave it. */
  readonly fileName: string;
  readonly env: Env;
  /** `created` for models that leave it out (Unix seconds); default: now. */
  readonly defaultCreated?: number;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Parses YAML or JSON text (JSON is read by the YAML parser, so lines are known for both). */
export function parseCatalogText(text: string, options: ParseOptions): Catalog {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new CatalogConfigError(
      doc.errors.map((error) => ({
        file: options.fileName,
        line: error.linePos?.[0].line ?? null,
        path: '(root)',
        message: (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, ''),
      })),
    );
  }
  const { config, issues } = validateCatalogConfig(doc.toJS({ maxAliasCount: 100 }));
  if (config === null) {
    throw new CatalogConfigError(
      issues.map((issue: ConfigIssue) => ({
        file: options.fileName,
        line: lineOf(doc, counter, issue.path, issue.atKey === true) ?? null,
        path: formatPath(issue.path),
        message: issue.message,
      })),
    );
  }
  return buildCatalog(config, { env: options.env, defaultCreated: options.defaultCreated ?? nowSeconds() });
}

/** Builds a catalog from an already-parsed value (tests, programmatic use); issues carry no line. */
export function catalogFromObject(
  value: unknown,
  options: { env: Env; defaultCreated?: number; name?: string },
): Catalog {
  const { config, issues } = validateCatalogConfig(value);
  if (config === null) {
    throw new CatalogConfigError(
      issues.map((issue) => ({
        file: options.name ?? '(object)',
        line: null,
        path: formatPath(issue.path),
        message: issue.message,
      })),
    );
  }
  return buildCatalog(config, { env: options.env, defaultCreated: options.defaultCreated ?? nowSeconds() });
}

export interface LoadCatalogOptions {
  /** The config file (SWITCHYARD_CONFIG). Unset or empty: the built-in demo catalog. */
  readonly path?: string | undefined;
  /** Environment used to resolve `api_key_env` / `base_url_env`. */
  readonly env: Env;
}

export interface CatalogLoadResult {
  readonly catalog: Catalog;
  /** Non-fatal findings (providers skipped for a missing key …); log them at start. */
  readonly warnings: readonly string[];
  /** The file read, or `built-in`. */
  readonly source: string;
}

/** Reads and validates the catalog. Throws CatalogConfigError when the file is unusable. */
export async function loadCatalog(options: LoadCatalogOptions): Promise<CatalogLoadResult> {
  const path = options.path?.trim();
  if (path === undefined || path === '') {
    const catalog = defaultCatalog(options.env);
    return { catalog, warnings: catalog.warnings, source: 'built-in' };
  }
  let text: string;
  let created: number;
  try {
    text = await readFile(path, 'utf8');
    created = Math.floor((await stat(path)).mtimeMs / 1000);
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown error';
    throw new CatalogConfigError([
      { file: path, line: null, path: '(root)', message: `cannot read the config file (${code})` },
    ]);
  }
  const catalog = parseCatalogText(text, { fileName: path, env: options.env, defaultCreated: created });
  return { catalog, warnings: catalog.warnings, source: path };
}
