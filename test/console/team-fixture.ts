// The data the layout and accessibility suites look at: a workspace with a long name, a guardrail,
// a preset and two generations made by real calls, then a signed-in console.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestDialect } from '../support/server.js';
import { launchBrowser } from './browser.js';
import { startConsole, type ConsoleHarness } from './harness.js';

/** A workspace name at the API's limit (100 characters), to see how long names are laid out. */
export const LONG_NAME = `Team ${'x'.repeat(95)}`;

export interface TeamConsole {
  h: ConsoleHarness;
  guardrailId: string;
  /** The newest generation's id. */
  generationId: string;
}

async function chat(h: ConsoleHarness, model: string): Promise<number> {
  const res = await fetch(`${h.gw.server.api}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.gw.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

export async function startTeamConsole(browser: Browser, dialect: TestDialect): Promise<TeamConsole> {
  const h = await startConsole(browser, dialect);
  await h.api('POST', '/workspaces', { name: LONG_NAME, slug: 'long' });
  const g = await h.api<{ data: { id: string } }>('POST', '/guardrails', { name: 'Budget guard', limit_usd: 5 });
  await h.api('POST', '/presets/helper/chat/completions', { model: 'openai/gpt-test', temperature: 0.2 });
  for (let i = 0; i < 2; i++) assert.equal(await chat(h, 'openai/gpt-test'), 200);
  // The ledger is written behind the answer: wait until both generations are listed.
  let generationId = '';
  for (let i = 0; i < 50 && generationId === ''; i++) {
    const page = await h.api<{ data: { id: string }[] }>('GET', '/generations?limit=10');
    if (page.data.length >= 2) generationId = page.data[0]?.id ?? '';
    else await new Promise((r) => setTimeout(r, 100));
  }
  assert.notEqual(generationId, '', 'the two generations were recorded');
  await h.signIn();
  return { h, guardrailId: g.data.id, generationId };
}

/**
 * Registers the suite's hooks: a browser and a team console before its tests, both closed after.
 * The returned object is filled in by the time the tests run.
 */
export function teamConsoleHooks(dialect: TestDialect): TeamConsole & { browser: Browser } {
  const t = {} as TeamConsole & { browser: Browser };
  before(async () => {
    t.browser = await launchBrowser();
    Object.assign(t, await startTeamConsole(t.browser, dialect));
  });
  after(async () => {
    await t.h.close();
    await t.browser.close();
  });
  return t;
}
