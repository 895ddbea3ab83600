// The real Codex CLI (`codex exec`, installed from npm) with the README's config and no feature
// flags, driven through Switchyard to both upstream formats: the fake upstream asks for a tool
// call, then finishes; the loop completes and the redaction guardrail holds on every request.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FAKE_TEXT } from '../fake-upstream/index.js';
import { runAgent as run, startAgentHarness, SECRET_EMAIL, type AgentHarness } from './agent-harness.js';
import { ensureAgent } from './install-agents.js';

const agent = ensureAgent('codex');
const skip = 'skip' in agent ? agent.skip : false;

/** The README's Codex config, pointed at the test gateway. */
function codexConfig(api: string, model: string): string {
  return [
    `model = "${model}"`,
    'model_provider = "switchyard"',
    '',
    '[model_providers.switchyard]',
    'name = "Switchyard"',
    `base_url = "${api}"`,
    'wire_api = "responses"',
    'env_key = "SWITCHYARD_API_KEY"',
    '',
  ].join('\n');
}

describe('Codex CLI through Switchyard', { skip }, () => {
  let h: AgentHarness;
  before(async () => {
    h = await startAgentHarness('sqlite');
  });
  after(() => h.close());

  for (const model of ['openai/gpt-test', 'anthropic/claude-test']) {
    it(`codex exec completes a tool loop on ${model}, the e-mail redacted upstream`, async () => {
      h.gw.fake.reset();
      h.gw.fake.queue('tool-call');
      const home = join(h.dir, `codex-${model.replace('/', '-')}`);
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, 'config.toml'), codexConfig(h.gw.server.api, model));
      const bin = 'bin' in agent ? agent.bin : '';
      const res = await run(
        bin,
        ['exec', '--skip-git-repo-check', `Write to ${SECRET_EMAIL} that the build is green.`],
        h.env({ CODEX_HOME: home, SWITCHYARD_API_KEY: h.key, RUST_LOG: 'error' }),
        h.dir,
      );
      const calls = h.gw.fake.requests.filter(
        (r) => r.path === (model.startsWith('openai') ? '/v1/chat/completions' : '/v1/messages'),
      );
      assert.ok(
        calls.length >= 2,
        `a tool call, then the answer: ${calls.length} upstream calls\n${res.err.slice(-2000)}`,
      );
      assert.equal(res.code, 0, res.err.slice(-2000));
      assert.match(res.out, new RegExp(FAKE_TEXT.slice(0, 10)));
      const text = h.upstreamText();
      assert.equal(text.includes(SECRET_EMAIL), false, 'the guardrail redacted the address on every call');
      assert.match(text, /function_call_output|"role":"tool"|tool_result/, 'the tool result went back upstream');
    });
  }
});
