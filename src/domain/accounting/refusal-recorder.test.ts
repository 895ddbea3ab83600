import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errors } from '../../errors/index.js';
import type { KeyRecord } from '../keys/types.js';
import { RefusalRecorder, type RefusedCall } from './refusal-recorder.js';
import type { GenerationRecord } from './types.js';

class Clock {
  constructor(public ms: number) {}
  now = () => new Date(this.ms);
}

const key = (hash: string) => ({ hash, workspaceId: 'ws', creatorUserId: 'user_a' }) as KeyRecord;

function setup(perKeyPerMinute: number) {
  const settled: GenerationRecord[] = [];
  const clock = new Clock(Date.parse('2026-11-26T10:00:05Z'));
  const recorder = new RefusalRecorder({
    meter: { settle: (_reservation, g) => void settled.push(g) },
    clock,
    perKeyPerMinute,
  });
  const refuse = (hash: string, model: string, overrides: Partial<RefusedCall> = {}) =>
    recorder.record({
      key: key(hash),
      model,
      apiType: 'completions',
      path: '/api/v1/chat/completions',
      requestId: 'req_1',
      streamed: false,
      elapsedMs: 2,
      error: errors.notFound(`Model "${model}" not found`),
      ...overrides,
    });
  return { settled, clock, recorder, refuse };
}

const total = (rows: GenerationRecord[]) => rows.reduce((n, g) => n + (g.refusal?.count ?? 0), 0);

test('beyond the rate, refusals are summed per status, code and model, and every one is counted', () => {
  const { settled, clock, recorder, refuse } = setup(2);
  for (let i = 0; i < 5; i++) refuse('k1', 'a/one');
  refuse('k2', 'a/one');
  assert.equal(settled.length, 3, 'two rows of k1 and one of k2 at once');
  recorder.writeFinishedMinutes();
  assert.equal(settled.length, 3, 'the minute is not over: nothing summed yet');
  clock.ms += 60_000;
  recorder.writeFinishedMinutes();
  assert.equal(settled.length, 4);
  assert.equal(settled[3]?.refusal?.count, 3);
  assert.equal(total(settled), 6);
  refuse('k1', 'a/one');
  assert.equal(settled.length, 5, 'a new minute has a new allowance');
  recorder.close();
});

test('one key holds at most 20 summed rows a minute; further models share one', () => {
  const { settled, clock, recorder, refuse } = setup(0);
  for (let i = 0; i < 30; i++) refuse('k1', `m/${i}`);
  clock.ms += 60_000;
  recorder.writeFinishedMinutes();
  assert.equal(settled.length, 20);
  const several = settled.filter((g) => g.model === '(several models)');
  assert.equal(several.length, 1);
  assert.equal(several[0]?.refusal?.count, 11);
  assert.equal(total(settled), 30);
  recorder.close();
});

test('a refusal keeps the rule and limits, clips long text and drops anything else', () => {
  const { settled, recorder, refuse } = setup(10);
  refuse('k1', 'x'.repeat(1000), {
    error: errors.forbidden('Request blocked by guardrail rule allowed_models', {
      rule: 'allowed_models',
      guardrail_ids: ['g1', 'g2'],
      limit: 5,
      prompt: 'never kept',
      nested: { a: 1 },
    }),
  });
  recorder.close();
  const g = settled[0];
  assert.ok(g?.refusal);
  assert.equal(g.model.length, 301);
  assert.equal(g.finishReason, 'error');
  assert.equal(g.costUsd, 0);
  assert.deepEqual(g.refusal, {
    status: 403,
    code: 'permission_denied',
    message: 'Request blocked by guardrail rule allowed_models',
    details: { path: '/api/v1/chat/completions', rule: 'allowed_models', guardrail_ids: ['g1', 'g2'], limit: 5 },
    count: 1,
  });
});

test('close writes the summed rows of the current minute', () => {
  const { settled, recorder, refuse } = setup(1);
  for (let i = 0; i < 4; i++) refuse('k1', 'a/one');
  recorder.close();
  assert.equal(settled.length, 2);
  assert.equal(total(settled), 4);
});

test('text a refused request brings is stored without NUL (PostgreSQL text cannot hold it)', () => {
  const { settled, recorder, refuse } = setup(5);
  refuse('k1', 'a/\u0000x');
  const row = settled[0];
  assert.equal(row?.model, 'a/\uFFFDx');
  assert.ok(!JSON.stringify(row?.refusal).includes('\\u0000'), 'no NUL in the refusal message or details');
  recorder.close();
});
