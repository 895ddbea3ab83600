import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { surfacesCatalog } from './surfaces-support.js';

/**
 * The bytes every surface answers, for each upstream wire format, streamed and not, and the body
 * each upstream received: compared with recorded files (test/fixtures/wire-bytes/), so a change
 * that moves code between layers proves it changed nothing on the wire. Only what differs per run
 * (generation and item ids, timestamps) is masked. `SWITCHYARD_RECORD_WIRE=1` records them anew
 * (then review the diff: any change there is a behaviour change).
 */
const DIR = fileURLToPath(new URL('../../../test/fixtures/wire-bytes/', import.meta.url));
const RECORD = process.env.SWITCHYARD_RECORD_WIRE === '1';

interface Case {
  name: string;
  path: string;
  body: Record<string, unknown>;
  behaviour?: string;
}

const chat = { messages: [{ role: 'user', content: 'hi' }], max_tokens: 10, temperature: 0.5 };
const prompt = { prompt: 'hi', max_tokens: 10 };
const messages = {
  max_tokens: 10,
  system: 'Be brief.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
};
const tools = [{ name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: {} } }];
const chatTools = [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: {} } } }];
const responses = { input: 'hi', instructions: 'Be brief.', max_output_tokens: 10 };
const responseTools = [{ type: 'function', name: 'weather', parameters: { type: 'object', properties: {} } }];

/** Upstream request headers recorded too: the credential, the vendor's version, the body's type. */
const SENT_HEADERS = ['authorization', 'x-api-key', 'anthropic-version', 'content-type', 'accept'];

const UPSTREAMS = { openai: 'openai/gpt-test', anthropic: 'anthropic/claude-test' } as const;

function cases(): Case[] {
  const out: Case[] = [];
  for (const [format, model] of Object.entries(UPSTREAMS)) {
    for (const stream of [false, true]) {
      const s = stream ? 'stream' : 'json';
      out.push({ name: `chat-${format}-${s}`, path: '/chat/completions', body: { model, stream, ...chat } });
      out.push({
        name: `chat-tools-${format}-${s}`,
        path: '/chat/completions',
        body: { model, stream, ...chat, tools: chatTools },
        behaviour: 'tool-call',
      });
      out.push({ name: `completions-${format}-${s}`, path: '/completions', body: { model, stream, ...prompt } });
      out.push({ name: `messages-${format}-${s}`, path: '/messages', body: { model, stream, ...messages } });
      out.push({
        name: `messages-tools-${format}-${s}`,
        path: '/messages',
        body: { model, stream, ...messages, tools },
        behaviour: 'tool-call',
      });
      out.push({ name: `responses-${format}-${s}`, path: '/responses', body: { model, stream, ...responses } });
      out.push({
        name: `responses-tools-${format}-${s}`,
        path: '/responses',
        body: { model, stream, ...responses, tools: responseTools },
        behaviour: 'tool-call',
      });
      if (stream) {
        for (const behaviour of ['no-usage', 'mid-stream-error']) {
          out.push({
            name: `chat-${behaviour}-${format}`,
            path: '/chat/completions',
            body: { model, stream, ...chat },
            behaviour,
          });
          out.push({
            name: `messages-${behaviour}-${format}`,
            path: '/messages',
            body: { model, stream, ...messages },
            behaviour,
          });
          out.push({
            name: `responses-${behaviour}-${format}`,
            path: '/responses',
            body: { model, stream, ...responses },
            behaviour,
          });
        }
      }
      out.push({
        name: `messages-fail-400-${format}-${s}`,
        path: '/messages',
        body: { model, stream, ...messages },
        behaviour: 'fail-400',
      });
      out.push({
        name: `responses-fail-400-${format}-${s}`,
        path: '/responses',
        body: { model, stream, ...responses },
        behaviour: 'fail-400',
      });
    }
  }
  // Embeddings: the OpenAI wire format and the offline demo provider, floats and base64.
  for (const [format, model] of [
    ['openai', 'openai/embed-test'],
    ['demo', 'demo/echo'],
  ] as const) {
    for (const encoding of ['float', 'base64']) {
      out.push({
        name: `embeddings-${format}-${encoding}`,
        path: '/embeddings',
        body: { model, input: ['hi', 'there'], encoding_format: encoding },
      });
    }
  }
  out.push({
    name: 'embeddings-fail-400-openai',
    path: '/embeddings',
    body: { model: 'openai/embed-test', input: 'hi' },
    behaviour: 'fail-400',
  });
  return out;
}

/** Masks what differs per run: generation, response and item ids, and the clock. */
function masked(text: string): string {
  return text
    .replace(/gen-\d+-[0-9a-f]+/g, 'gen-ID')
    .replace(/"(created|created_at|completed_at)":\d{10}/g, '"$1":TIME')
    .replace(/\b(resp|msg|rs|fc|call|item)_[0-9A-Za-z-]{6,}/g, '$1_ID');
}

describe('wire bytes of every surface and upstream format', () => {
  let gw: GatewayHarness;

  before(async () => {
    if (RECORD) mkdirSync(DIR, { recursive: true });
    gw = await startGateway({ dialect: 'sqlite', catalog: surfacesCatalog });
  });
  after(() => gw.close());

  for (const c of cases()) {
    it(c.name, async () => {
      gw.fake.reset();
      if (c.behaviour !== undefined) gw.fake.queue(c.behaviour);
      const res = await fetch(`${gw.server.api}${c.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(c.body),
      });
      const text = await res.text();
      const upstream = gw.fake.requests.map((r) => {
        const headers = SENT_HEADERS.map((h) => `${h}=${String(r.headers[h] ?? '')}`).join(' ');
        return `${r.method} ${r.path} ${headers}\n${JSON.stringify(r.body)}`;
      });
      const actual = masked(
        [`${res.status} ${res.headers.get('content-type') ?? ''}`, ...upstream, '', text].join('\n'),
      );
      const file = `${DIR}${c.name}.txt`;
      if (RECORD) writeFileSync(file, actual);
      assert.ok(existsSync(file), `${file} is recorded`);
      assert.equal(actual, readFileSync(file, 'utf8'));
    });
  }
});
