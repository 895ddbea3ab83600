import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore, type Store } from '../../src/store/index.js';
import type { NewKey } from '../../src/domain/keys/types.js';
import { dialects, testDatabase, type TestDatabase } from '../support/server.js';

const T0 = '2026-01-01T00:00:00.000Z';

function newKey(
  overrides: Partial<NewKey> & Pick<NewKey, 'hash' | 'tokenDigest' | 'workspaceId' | 'creatorUserId'>,
): NewKey {
  return {
    kind: 'api',
    name: 'k',
    label: 'sk-sy-v1-abc...def',
    limit: null,
    limitReset: null,
    includeByokInLimit: false,
    expiresAt: null,
    externalUser: null,
    externalApiKeyDigest: null,
    createdAt: T0,
    ...overrides,
  };
}

/** One suite, both databases: every repository behaves the same on SQLite and PostgreSQL. */
for (const dialect of dialects()) {
  describe(`store conformance (${dialect})`, () => {
    let db: TestDatabase;
    let store: Store;
    const ws = { id: '00000000-0000-4000-8000-000000000001', slug: 'w1' };

    before(async () => {
      db = await testDatabase(dialect);
      store = openStore(db.url);
      await store.migrate();
      await store.members.insert({
        id: 'user_a',
        email: 'a@x.io',
        firstName: null,
        lastName: null,
        role: 'org:admin',
        createdAt: T0,
      });
      await store.members.insert({
        id: 'user_b',
        email: 'b@x.io',
        firstName: 'B',
        lastName: 'Bee',
        role: 'org:member',
        createdAt: T0,
      });
      await store.workspaces.insert({
        id: ws.id,
        slug: ws.slug,
        name: 'W1',
        description: null,
        isDefault: true,
        defaultTextModel: null,
        defaultImageModel: null,
        defaultProviderSort: null,
        disabledServerTools: ['openrouter:bash'],
        ioLoggingApiKeyIds: [1, 2],
        ioLoggingSamplingRate: 0.5,
        isDataDiscountLoggingEnabled: true,
        isObservabilityBroadcastEnabled: false,
        isObservabilityIoLoggingEnabled: false,
        includeByokInBudgets: false,
        createdBy: 'user_a',
        createdAt: T0,
        updatedAt: null,
      });
    });
    after(async () => {
      await store.close();
      await db.dispose();
    });

    it('migrations are idempotent and safe to run concurrently', async () => {
      assert.deepEqual(await store.migrate(), []);
      const others = [openStore(db.url), openStore(db.url)];
      try {
        const results = await Promise.all(others.map((s) => s.migrate()));
        assert.deepEqual(results, [[], []]);
      } finally {
        await Promise.all(others.map((s) => s.close()));
      }
    });

    it('round-trips workspaces with booleans, JSON and doubles intact', async () => {
      const w = await store.workspaces.findByIdOrSlug(ws.id.toUpperCase());
      assert.ok(w);
      assert.equal(w.isDefault, true);
      assert.deepEqual(w.disabledServerTools, ['openrouter:bash']);
      assert.deepEqual(w.ioLoggingApiKeyIds, [1, 2]);
      assert.equal(w.ioLoggingSamplingRate, 0.5);
      assert.equal(w.isDataDiscountLoggingEnabled, true);
      assert.deepEqual(await store.workspaces.findByIdOrSlug('w1'), w);
      assert.equal((await store.workspaces.findDefault())?.id, ws.id);
      const updated = await store.workspaces.update(ws.id, { description: 'd', disabledServerTools: null }, T0);
      assert.equal(updated?.description, 'd');
      assert.equal(updated?.disabledServerTools, null);
    });

    it('keys: insert, find by hash and digest, update, replace digest, delete', async () => {
      const k = await store.keys.insert(
        newKey({
          hash: 'h1',
          tokenDigest: 'd1',
          workspaceId: ws.id,
          creatorUserId: 'user_a',
          limit: 1.25,
          limitReset: 'daily',
        }),
      );
      assert.equal(k.limit, 1.25);
      assert.equal(k.disabled, false);
      assert.deepEqual(await store.keys.findByDigest('d1'), k);
      const u = await store.keys.update('h1', { disabled: true, limit: null }, '2026-01-02T00:00:00.000Z');
      assert.equal(u?.disabled, true);
      assert.equal(u?.limit, null);
      assert.equal(u?.limitReset, 'daily');
      const r = await store.keys.replaceDigest('h1', 'd2', 'new-label', '2026-01-03T00:00:00.000Z');
      assert.equal(r?.tokenDigest, 'd2');
      assert.equal(await store.keys.findByDigest('d1'), null);
      assert.equal(await store.keys.update('nope', { name: 'x' }, T0), null);
      assert.equal(await store.keys.delete('h1'), true);
      assert.equal(await store.keys.delete('h1'), false);
    });

    it('a token digest is unique', async () => {
      await store.keys.insert(newKey({ hash: 'u1', tokenDigest: 'same', workspaceId: ws.id, creatorUserId: 'user_a' }));
      await assert.rejects(
        store.keys.insert(newKey({ hash: 'u2', tokenDigest: 'same', workspaceId: ws.id, creatorUserId: 'user_a' })),
      );
    });

    it('active key holders exclude disabled and expired keys', async () => {
      await store.keys.insert(
        newKey({
          hash: 'a1',
          tokenDigest: 'da1',
          workspaceId: ws.id,
          creatorUserId: 'user_b',
          expiresAt: '2026-06-01T00:00:00.000Z',
        }),
      );
      assert.deepEqual(await store.keys.activeHolders(ws.id, ['user_b', 'user_x'], '2026-05-01T00:00:00.000Z'), [
        'user_b',
      ]);
      assert.deepEqual(await store.keys.activeHolders(ws.id, ['user_b'], '2026-07-01T00:00:00.000Z'), []);
      await store.keys.update('a1', { disabled: true }, T0);
      assert.deepEqual(await store.keys.activeHolders(ws.id, ['user_b'], '2026-05-01T00:00:00.000Z'), []);
    });

    it('memberships upsert (role updates) and remove; pages report totals', async () => {
      const rows = await store.workspaces.upsertMembers([
        { id: 'm1', workspaceId: ws.id, userId: 'user_a', role: 'member', createdAt: T0 },
        { id: 'm2', workspaceId: ws.id, userId: 'user_b', role: 'member', createdAt: T0 },
      ]);
      assert.equal(rows.length, 2);
      const again = await store.workspaces.upsertMembers([
        { id: 'm3', workspaceId: ws.id, userId: 'user_a', role: 'admin', createdAt: T0 },
      ]);
      assert.equal(again[0]?.role, 'admin');
      assert.equal(again[0]?.id, 'm1', 'existing membership kept its id');
      const page = await store.workspaces.listMembers(ws.id, { offset: 1, limit: 1 });
      assert.equal(page.total, 2);
      assert.equal(page.rows.length, 1);
      assert.equal(await store.workspaces.removeMembers(ws.id, ['user_a', 'user_zzz']), 1);
      assert.equal(await store.workspaces.isMember(ws.id, 'user_a'), false);
    });

    it('a failed transaction leaves no trace', async () => {
      await assert.rejects(
        store.withTransaction(async (repos) => {
          await repos.members.insert({
            id: 'user_tx',
            email: 'tx@x.io',
            firstName: null,
            lastName: null,
            role: 'org:member',
            createdAt: T0,
          });
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await store.members.findById('user_tx'), null);
      const { total } = await store.members.list({ offset: 0, limit: 10 });
      assert.equal(total, 2);
    });

    it('stored responses: several in one statement, an id repeated in it or stored before kept as first written', async () => {
      const response = (id: string, text: string) => ({
        id,
        workspaceId: ws.id,
        keyHash: 'k'.repeat(64),
        inputItems: JSON.stringify([{ role: 'user', content: text }]),
        outputItems: '[]',
        response: JSON.stringify({ id, text }),
        bytes: 10,
        createdAt: T0,
        expiresAt: '2099-01-01T00:00:00.000Z',
      });
      const scope = { workspaceId: ws.id, keyHash: 'k'.repeat(64) };
      await store.storedResponses.saveAll([
        response('gen-a', 'one'),
        response('gen-b', 'two'),
        response('gen-a', 'three'),
      ]);
      await store.storedResponses.saveAll([response('gen-b', 'four')]);
      assert.deepEqual((await store.storedResponses.find('gen-a', scope, T0))?.response, { id: 'gen-a', text: 'one' });
      assert.deepEqual((await store.storedResponses.find('gen-b', scope, T0))?.response, { id: 'gen-b', text: 'two' });
      await store.storedResponses.saveAll([]);
    });

    it('SQL stays parameterised: hostile values are data, not SQL', async () => {
      const evil = "x'); DROP TABLE members; --";
      assert.equal(await store.members.findByEmail(evil), null);
      assert.equal(await store.workspaces.findByIdOrSlug(evil), null);
      assert.equal((await store.members.list({ offset: 0, limit: 10 })).total, 2);
    });
  });
}
