// ResponseStore's writes (response-store.ts): one statement per event-loop turn, reads waiting
// for a pending write, and a failed write losing only its saves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResponseStore } from './response-store.js';
import type { SerializedResponse, StoredResponse, StoredResponseRepository } from './types.js';

const scope = { workspaceId: 'ws', keyHash: 'k' };

/** A repository in memory that records each `saveAll` and can be told to fail the next one. */
function memoryRepository() {
  const rows = new Map<string, SerializedResponse>();
  const calls: string[][] = [];
  let failNext = false;
  const repository: StoredResponseRepository = {
    saveAll(responses) {
      calls.push(responses.map((r) => r.id));
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('store unreachable'));
      }
      for (const r of responses) if (!rows.has(r.id)) rows.set(r.id, r);
      return Promise.resolve();
    },
    find(id) {
      const row = rows.get(id);
      if (row === undefined) return Promise.resolve(null);
      const found: StoredResponse = {
        id: row.id,
        workspaceId: row.workspaceId,
        keyHash: row.keyHash,
        inputItems: JSON.parse(row.inputItems) as unknown[],
        outputItems: JSON.parse(row.outputItems) as unknown[],
        response: JSON.parse(row.response) as Record<string, unknown>,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
      };
      return Promise.resolve(found);
    },
    remove: () => Promise.resolve(false),
    pruneExpired: () => Promise.resolve(0),
  };
  return { repository, rows, calls, failNextSave: () => (failNext = true) };
}

function storeOver(repository: StoredResponseRepository, maxBytes = 1024 * 1024): ResponseStore {
  return new ResponseStore({
    repository,
    clock: { now: () => new Date('2026-11-27T00:00:00Z') },
    retentionMs: 1000,
    maxBytes,
  });
}

const save = (store: ResponseStore, id: string, text = 'hi') =>
  store.save({ id, ...scope, inputItems: [{ role: 'user', content: text }], outputItems: [], response: { id } });

describe('ResponseStore writes', () => {
  it('writes the saves of one turn in one statement; a read right after a save finds it', async () => {
    const memory = memoryRepository();
    const store = storeOver(memory.repository);
    save(store, 'gen-1');
    save(store, 'gen-2');
    save(store, 'gen-1'); // the same id again: the first one stays
    const found = await store.find('gen-2', scope);
    assert.deepEqual(found?.response, { id: 'gen-2' });
    assert.deepEqual(memory.calls, [['gen-1', 'gen-2', 'gen-1']]);
    save(store, 'gen-3');
    assert.equal((await store.find('gen-3', scope))?.id, 'gen-3');
    assert.deepEqual(memory.calls, [['gen-1', 'gen-2', 'gen-1'], ['gen-3']]);
    // The stored size is the three parts as one JSON array, as the bound measures it.
    const row = memory.rows.get('gen-1');
    assert.equal(
      row?.bytes,
      Buffer.byteLength(JSON.stringify([[{ role: 'user', content: 'hi' }], [], { id: 'gen-1' }])),
    );
    await store.close();
  });

  it('splits a large turn into bounded statements and keeps no response over the bound', async () => {
    const memory = memoryRepository();
    const store = storeOver(memory.repository, 200_000);
    for (let i = 0; i < 40; i++) save(store, `gen-${i}`);
    save(store, 'gen-big-1', 'x'.repeat(150_000));
    save(store, 'gen-too-big', 'x'.repeat(250_000));
    for (let i = 0; i < 8; i++) save(store, `gen-big-${i + 2}`, 'x'.repeat(150_000));
    await store.close();
    assert.deepEqual(
      memory.calls.map((c) => c.length),
      [32, 8 + 7, 2],
    );
    assert.equal(memory.rows.size, 49);
    assert.equal(memory.rows.has('gen-too-big'), false);
  });

  it('a failed write loses its saves (a later 404), never rejects, and the next turn writes again', async () => {
    const memory = memoryRepository();
    const store = storeOver(memory.repository);
    memory.failNextSave();
    save(store, 'gen-lost');
    assert.equal(await store.find('gen-lost', scope), null);
    save(store, 'gen-kept');
    assert.equal((await store.find('gen-kept', scope))?.id, 'gen-kept');
    await store.close();
  });
});
