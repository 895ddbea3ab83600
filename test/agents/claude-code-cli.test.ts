// The real Claude Code (`claude -p`, installed from npm) at its default model, driven through
// Switchyard natively (Anthropic upstream) and translated (OpenAI-compatible upstream): the fake
// asks for a tool call, then finishes; the loop completes and the redaction guardrail holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAKE_TEXT } from '../fake-upstream/index.js';
import { testCatalog } from '../support/gateway.js';
import { runAgent as run, startAgentHarness, SECRET_EMAIL, type AgentHarness } from './agent-harness.js';
import { ensureAgent } from './install-agents.js';

const major = Number(process.versions.node.split('.')[0]);
const agent = major >= 22 ? ensureAgent('claude') : null;
const skip =
  agent === null
    ? `Claude Code needs Node ≥ 22 (this is ${process.versions.node}); CI runs Node 24`
    : 'skip' in agent
      ? agent.skip
      : false;

/**
 * Model names Claude Code sends at its defaults (its main model and the small fast one), as
 * aliases of the catalog model under test: a new default of a future release is one more line.
 */
const CLAUDE_CODE_MODELS = [
  'claude-sonnet-4-5-20250929',
  'claude-sonnet-4-5',
  'claude-sonnet-4-6',
  'claude-opus-4-1-20250805',
  'claude-opus-4-5-20251101',
  'claude-opus-4-6',
  'claude-opus-5-5',
  'claude-haiku-4-5-20251001',
  'claude-haiku-4-5',
  'claude-3-5-haiku-20241022',
];

/** The test catalog with Claude Code's model names as aliases of `slug`. */
const catalogFor = (slug: string) => (url: string) => {
  const catalog = testCatalog(url) as { models: { slug: string; aliases?: string[] }[] };
  for (const model of catalog.models) if (model.slug === slug) model.aliases = CLAUDE_CODE_MODELS;
  return catalog;
};

for (const [slug, path] of [
  ['anthropic/claude-test', '/v1/messages'],
  ['openai/gpt-test', '/v1/chat/completions'],
] as const) {
  describe(`Claude Code through Switchyard to ${slug}`, { skip }, () => {
    let h: AgentHarness;
    before(async () => {
      h = await startAgentHarness('sqlite', catalogFor(slug));
    });
    after(() => h.close());

    it('claude -p at its default model completes a tool loop, the e-mail redacted upstream', async () => {
      h.gw.fake.reset();
      h.gw.fake.queue('tool-call');
      const bin = agent !== null && 'bin' in agent ? agent.bin : '';
      const res = await run(
        bin,
        ['-p', `Send ${SECRET_EMAIL} a note that the build is green.`, '--output-format', 'json'],
        h.env({
          ANTHROPIC_BASE_URL: h.gw.server.api.replace(/\/v1$/, ''),
          ANTHROPIC_AUTH_TOKEN: h.key,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          DISABLE_AUTOUPDATER: '1',
        }),
        h.dir,
      );
      const calls = h.gw.fake.requests.filter((r) => r.path === path);
      assert.ok(
        calls.length >= 2,
        `a tool call, then the answer: ${calls.length} calls (exit ${String(res.code)})\n${res.out.slice(-1000)}\n${res.err.slice(-2000)}`,
      );
      assert.equal(res.code, 0, `${res.out.slice(-1000)}\n${res.err.slice(-2000)}`);
      assert.match(res.out, new RegExp(FAKE_TEXT.slice(0, 10)));
      assert.equal(h.upstreamText().includes(SECRET_EMAIL), false, 'the guardrail redacted the address on every call');
    });
  });
}
