// Debian's Chromium driven by playwright-core: never a browser download. A missing binary fails
// the suite with a clear message (CI installs it with apt; see scripts/test-all.sh).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_ENV = 'SWITCHYARD_CHROMIUM';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const candidates = [process.env[CHROMIUM_ENV], '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
  if (found === undefined)
    throw new Error(
      `Chromium not found (looked at ${CHROMIUM_ENV}, /usr/bin/chromium, /usr/bin/chromium-browser): ` +
        'install Debian\'s "chromium" package (apt-get install chromium); the console tests never download a browser',
    );
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: FLAGS, timeout: 60_000 });
}

let axeSource: string | null = null;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page (its source evaluated through the DevTools protocol, which the page's
 * strict CSP does not block) and returns the serious and critical violations.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  return (await a11yViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Every axe-core violation of the page, whatever its impact. */
export async function a11yViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate('typeof window.axe');
  if (loaded !== 'object') await page.evaluate(axeSource);
  // A string, not a function: the test build has no DOM types, and axe runs in the page anyway.
  const violations = await page.evaluate<AxeViolation[]>(`(async () => {
    const res = await window.axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  })()`);
  return violations;
}
