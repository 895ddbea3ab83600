import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001-foundation.js';
import * as m002 from './002-accounting.js';
import * as m003 from './003-guardrails.js';
import * as m004 from './004-spend-accounts.js';
import * as m005 from './005-presets.js';
import * as m006 from './006-budget-leases.js';
import * as m007 from './007-audit-log.js';
import * as m008 from './008-console.js';
import * as m009 from './009-rate-limits.js';
import * as m010 from './010-daily-rollups.js';
import * as m011 from './011-api-surface.js';
import * as m012 from './012-console-roles.js';
import * as m013 from './013-refusals-retention.js';
import * as m014 from './014-callers-and-stored-responses.js';

/**
 * Versioned migrations, compiled into the binary (no directory scanning at run time).
 * Append new ones; never edit one that has shipped.
 */
const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-accounting': m002,
  '003-guardrails': m003,
  '004-spend-accounts': m004,
  '005-presets': m005,
  '006-budget-leases': m006,
  '007-audit-log': m007,
  '008-console': m008,
  '009-rate-limits': m009,
  '010-daily-rollups': m010,
  '011-api-surface': m011,
  '012-console-roles': m012,
  '013-refusals-retention': m013,
  '014-callers-and-stored-responses': m014,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
