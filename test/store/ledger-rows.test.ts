import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GenerationRecord, Refusal } from '../../src/domain/accounting/types.js';
import { GENERATION_COLUMNS, rowValues, toRow } from '../../src/store/repositories/ledger-rows.js';
import { generation } from '../accounting/fixtures.js';

describe('ledger rows', () => {
  it('the positional values the SQLite writer binds are toRow’s, column for column', () => {
    const refusal: Refusal = {
      status: 429,
      code: 'rate_limited',
      message: 'slow down',
      details: { rule: 'r' },
      count: 3,
    };
    const cases: GenerationRecord[] = [
      generation(),
      generation({ streamed: true, cancelled: true, usageEstimated: true, flags: ['pii', 'prompt_injection'] }),
      generation({ promptTokens: 10.6, completionTokens: 2.4, reasoningTokens: 0.5, cachedTokens: 1.49 }),
      generation({ presetId: 'p', presetVersion: 2.7, upstreamId: null, finishReason: null, nativeFinishReason: null }),
      generation({ refusal }),
      generation({ refusal: { ...refusal, count: 0 } }),
      generation({ refusal: { ...refusal, status: 4.5 } }),
      generation({ refusal: null, userAgent: undefined, sessionId: undefined, origin: undefined }),
      { ...generation(), attempts: [], apiType: 'responses' },
    ];
    for (const g of cases) {
      const row = toRow(g);
      assert.deepEqual(
        rowValues(g),
        GENERATION_COLUMNS.map((c) => row[c]),
        JSON.stringify(g),
      );
    }
  });
});
