import assert from 'node:assert/strict';
import { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { surfacesCatalog } from './surfaces-support.js';

/**
 * Every byte the server writes, and every settle, in the order they happen (one call at a time).
 * The charge must be settled (in the ledger journal) before the answer's body, or before the
 * stream's closing event, leaves the process: a crash between the two would deliver an answer
 * that is never charged. The order does not depend on the database, so this runs on SQLite only.
 */
const trail: string[] = [];
/** The gateway's port: the fake upstream in this process writes answers too. */
let gatewayPort = -1;

type Sender = (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) => unknown;
const proto = ServerResponse.prototype as unknown as { write: Sender; end: Sender };
for (const name of ['write', 'end'] as const) {
  const original = proto[name];
  proto[name] = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    const ours = this.socket?.localPort === gatewayPort;
    if (ours && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) trail.push(`sent:${chunk.toString()}`);
    return original.call(this, chunk, ...rest);
  };
}

describe('a call is settled before its answer ends, on every surface', () => {
  let gw: GatewayHarness;

  before(async () => {
    gw = await startGateway({ dialect: 'sqlite', catalog: surfacesCatalog });
    gatewayPort = Number(new URL(gw.server.url).port);
    const meter = gw.server.running.services.meter;
    const settle = meter.settle.bind(meter);
    meter.settle = (reservation, generation) => {
      trail.push(`settle:${generation.id}`);
      settle(reservation, generation);
    };
  });
  after(() => gw.close());

  /** Sends one call; returns its body and the trail's settle and first `marker` write positions. */
  const order = async (path: string, body: Record<string, unknown>, marker: string, upstream = '') => {
    trail.length = 0;
    // The upstream pauses after its last event: what the gateway wrote of it by then has left.
    gw.fake.queue(`end-delay-100${upstream}`);
    const res = await fetch(`${gw.server.api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.ok(text.includes(marker), `${path}: the answer has ${marker}: ${text.slice(-300)}`);
    const settled = trail.findIndex((e) => e.startsWith('settle:'));
    const closing = trail.findIndex((e) => e.startsWith('sent:') && e.includes(marker));
    assert.ok(settled >= 0, `${path}: settled`);
    assert.ok(closing > settled, `${path}: settled at ${settled}, ${marker} sent at ${closing}`);
  };

  const chat = { messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 };
  const messages = { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

  it('chat and completions: JSON before the body, streamed before [DONE]', async () => {
    await order('/chat/completions', { model: 'openai/gpt-test', ...chat }, '"usage"');
    await order('/chat/completions', { model: 'openai/gpt-test', stream: true, ...chat }, '[DONE]');
    await order('/completions', { model: 'openai/gpt-test', prompt: 'hi' }, '"usage"');
    await order('/completions', { model: 'openai/gpt-test', prompt: 'hi', stream: true }, '[DONE]');
  });

  it('/messages: native and translated streams settle before message_stop', async () => {
    await order('/messages', { model: 'anthropic/claude-test', ...messages }, '"usage"');
    await order('/messages', { model: 'anthropic/claude-test', stream: true, ...messages }, 'message_stop');
    await order('/messages', { model: 'openai/gpt-test', stream: true, ...messages }, 'message_stop');
    // An upstream stream that never names a finish reason: the translation still closes the message.
    await order(
      '/messages',
      { model: 'openai/gpt-test', stream: true, ...messages },
      'message_stop',
      '+no-finish+chunk-delay-20',
    );
  });

  it('/responses before response.completed; /embeddings before the body', async () => {
    await order('/responses', { model: 'openai/gpt-test', input: 'hi' }, '"usage"');
    await order('/responses', { model: 'openai/gpt-test', input: 'hi', stream: true }, 'response.completed');
    await order('/embeddings', { model: 'openai/embed-test', input: 'hi' }, '"usage"');
  });
});
