// Stored Responses: `store` (default true) keeps a response for previous_response_id,
// item_reference, GET and DELETE /responses/{id}; only the key that made it reads it; it expires
// after the retention and is pruned; a key under a ZDR guardrail never has one kept.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FAKE_TEXT } from '../fake-upstream/index.js';
import { MutableClock } from '../support/clock.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { call, dialects } from '../support/server.js';
import { surfacesCatalog } from './surfaces-support.js';

type Json = Record<string, unknown>;
interface Response {
  id: string;
  store: boolean;
  output: (Json & { id: string; type: string })[];
  metadata: Record<string, string> | null;
}

for (const dialect of dialects()) {
  describe(`stored responses (${dialect})`, () => {
    let gw: GatewayHarness;
    const clock = new MutableClock(new Date('2026-11-01T00:00:00.000Z'));
    let otherKey = '';
    let otherWorkspaceKey = '';
    const post = async (body: Json, token = gw.apiKey) => {
      const res = await fetch(`${gw.server.api}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-test', ...body }),
      });
      const text = await res.text();
      if (body.stream !== true) return { status: res.status, body: JSON.parse(text) as Response, text };
      const done = text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as { type: string; response?: Response })
        .find((e) => e.type === 'response.completed');
      return { status: res.status, body: done?.response as Response, text };
    };
    const get = (id: string, token = gw.apiKey, method = 'GET') =>
      fetch(`${gw.server.api}/responses/${id}`, { method, headers: { authorization: `Bearer ${token}` } });
    const upstreamMessages = () => (gw.fake.requests.at(-1)?.body as { messages: Json[] }).messages;
    const newKey = async (body: Json) =>
      (await call<{ key: string }>(gw.server, 'POST', '/keys', { token: gw.server.managementToken, body })).body.key;

    before(async () => {
      gw = await startGateway({ dialect, catalog: surfacesCatalog, clock });
      otherKey = await newKey({ name: 'other' });
      const token = gw.server.managementToken;
      await call(gw.server, 'POST', '/workspaces', { token, body: { name: 'Elsewhere', slug: 'elsewhere' } });
      const keys = await call<{ data: { creator_user_id: string }[] }>(gw.server, 'GET', '/keys', { token });
      const owner = keys.body.data[0]?.creator_user_id ?? '';
      await call(gw.server, 'POST', '/workspaces/elsewhere/members/add', { token, body: { user_ids: [owner] } });
      otherWorkspaceKey = await newKey({ name: 'elsewhere', workspace_id: 'elsewhere', creator_user_id: owner });
      assert.ok(otherWorkspaceKey.startsWith('sk-'), 'a key in another workspace');
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    for (const stream of [false, true]) {
      it(`store by default: GET returns it, previous_response_id and item_reference chain on it (stream ${stream})`, async () => {
        const first = await post({ instructions: 'be brief', input: 'first question', stream });
        assert.equal(first.status, 200, first.text);
        assert.equal(first.body.store, true);
        const got = await get(first.body.id);
        assert.equal(got.status, 200);
        assert.deepEqual(((await got.json()) as Response).output, first.body.output);

        const chained = await post({ previous_response_id: first.body.id, input: 'second question', stream });
        assert.equal(chained.status, 200, chained.text);
        assert.deepEqual(upstreamMessages(), [
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: FAKE_TEXT },
          { role: 'user', content: 'second question' },
        ]);

        // As the AI SDK sends a later step: earlier output by reference, without previous_response_id.
        const message = first.body.output.find((i) => i.type === 'message');
        assert.ok(message);
        const referenced = await post({
          input: [
            { role: 'user', content: 'first question' },
            { type: 'item_reference', id: message.id },
            { role: 'user', content: 'third question' },
          ],
          stream,
        });
        assert.equal(referenced.status, 200, referenced.text);
        assert.deepEqual(upstreamMessages()[1], { role: 'assistant', content: FAKE_TEXT });
      });
    }

    it('only the key that made a response reads, chains on or deletes it', async () => {
      const made = await post({ input: 'mine' });
      const message = made.body.output.find((i) => i.type === 'message');
      for (const token of [otherKey, otherWorkspaceKey]) {
        assert.equal((await get(made.body.id, token)).status, 404);
        assert.equal((await post({ previous_response_id: made.body.id, input: 'x' }, token)).status, 404);
        const ref = await post({ input: [{ type: 'item_reference', id: message?.id }] }, token);
        assert.equal(ref.status, 400, ref.text);
        assert.equal((await get(made.body.id, token, 'DELETE')).status, 404);
      }
      assert.equal((await get(made.body.id, 'sk-sy-v1-not-a-key')).status, 401);
      assert.equal((await get(made.body.id, String(undefined))).status, 401);
      const deleted = await get(made.body.id, gw.apiKey, 'DELETE');
      assert.equal(deleted.status, 200);
      assert.deepEqual(await deleted.json(), { id: made.body.id, object: 'response', deleted: true });
      assert.equal((await get(made.body.id)).status, 404);
      assert.equal((await post({ previous_response_id: made.body.id, input: 'x' })).status, 404);
    });

    it('store: false keeps nothing', async () => {
      const res = await post({ input: 'forget me', store: false });
      assert.equal(res.body.store, false);
      assert.equal((await get(res.body.id)).status, 404);
    });

    it('expires after the retention and is pruned in the background', async () => {
      const kept = await post({ input: 'old' });
      assert.equal((await get(kept.body.id)).status, 200);
      clock.advance(31 * 86_400_000);
      assert.equal((await get(kept.body.id)).status, 404, 'expired: no longer served');
      const pruned = await gw.server.running.services.responses.prune();
      assert.ok(pruned >= 1, `pruned ${pruned}`);
      assert.equal(await gw.server.running.services.responses.prune(), 0);
    });

    it('a key under a guardrail enforcing ZDR never has a response kept, and the response says so', async () => {
      const zdrKey = await newKey({ name: 'zdr' });
      const hash = (
        await call<{ data: { hash: string }[] }>(gw.server, 'GET', '/keys', { token: gw.server.managementToken })
      ).body.data.find((k) => (k as unknown as { name: string }).name === 'zdr')?.hash;
      const guardrail = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: gw.server.managementToken,
        body: {
          name: 'zdr-only',
          enforce_zdr_vendor_a: true,
          enforce_zdr_vendor_b: true,
          enforce_zdr_vendor_c: true,
          enforce_zdr_vendor_d: true,
          enforce_zdr_other: true,
        },
      });
      assert.equal(guardrail.status, 201, JSON.stringify(guardrail.body));
      const assigned = await call(gw.server, 'POST', `/guardrails/${guardrail.body.data.id}/assignments/keys`, {
        token: gw.server.managementToken,
        body: { key_hashes: [hash] },
      });
      assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
      const res = await post({ input: 'secret', store: true }, zdrKey);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.store, false);
      assert.match(res.body.metadata?.switchyard_store ?? '', /zero data retention/);
      assert.equal((await get(res.body.id, zdrKey)).status, 404);
    });
  });
}
