import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCatalog } from '../../src/catalog/index.js';
import { bootstrap } from '../../src/bootstrap.js';
import { asCli } from '../../src/domain/audit/record.js';
import { systemClock } from '../../src/domain/common/clock.js';
import { createServices } from '../../src/services.js';
import { openStore, type Store } from '../../src/store/index.js';
import { dialects, testDatabase } from '../support/server.js';

for (const dialect of dialects()) {
  describe(`audit record and change commit together (${dialect})`, () => {
    it('a write whose audit record cannot be written is rolled back', async () => {
      const db = await testDatabase(dialect);
      const store = openStore(db.url, { checkpointWorker: false });
      try {
        await store.migrate();
        const options = { clock: systemClock, catalog: defaultCatalog(), keyCacheRevalidateMs: 0 };
        const ok = createServices({ store, ...options });
        await bootstrap(ok, { managementKey: null, ownerEmail: 'o@example.com', createFirstKey: false });
        await ok.close();
        const failing: Store = {
          ...store,
          withTransaction: (fn) =>
            store.withTransaction((repos) =>
              fn({ ...repos, audit: { ...repos.audit, insert: () => Promise.reject(new Error('audit down')) } }),
            ),
        };
        const services = createServices({ store: failing, ...options });
        await assert.rejects(services.members.add({ email: 'x@example.com' }, asCli), /audit down/);
        assert.equal(await store.members.findByEmail('x@example.com'), null);
        await assert.rejects(services.workspaces.create({ name: 'w', slug: 'w' }, 'nobody', asCli), /audit down/);
        assert.equal(await store.workspaces.findByIdOrSlug('w'), null);
        const owner = await store.members.findByEmail('o@example.com');
        assert.ok(owner !== null);
        await assert.rejects(services.keys.createManagementKey({ name: 'm', memberId: owner.id }, asCli), /audit down/);
        assert.equal((await store.keys.listManagement()).length, 0);
        assert.equal((await store.audit.list({ limit: 100 })).length, 2, 'the bootstrap writes only');
        await services.close();
      } finally {
        await store.close();
        await db.dispose();
      }
    });
  });
}
