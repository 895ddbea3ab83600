import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatResponse } from './response.js';

const fallback = { model: 'm', id: 'x', prompt: () => 'p' };

function logprobsOf(logprobs: string): unknown {
  const body = JSON.parse(
    `{"id":"a","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},` +
      `"logprobs":${logprobs},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
  ) as unknown;
  return chatResponse(body, fallback)?.choices[0]?.logprobs;
}

test('logprobs keep the upstream keys in their order, with content an array or null', () => {
  assert.equal(
    JSON.stringify(logprobsOf('{"refusal":null,"content":[{"token":"a","logprob":-1}],"z":2}')),
    '{"refusal":null,"content":[{"token":"a","logprob":-1}],"z":2}',
  );
  assert.equal(JSON.stringify(logprobsOf('{"refusal":null,"content":"bad"}')), '{"refusal":null,"content":null}');
  assert.equal(JSON.stringify(logprobsOf('{"refusal":[1]}')), '{"refusal":[1],"content":null}');
});

test('a "__proto__" key of the upstream logprobs stays an own key and sets no prototype', () => {
  const logprobs = logprobsOf('{"__proto__":{"polluted":1},"content":[1]}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(logprobs), Object.prototype);
  assert.equal(JSON.stringify(logprobs), '{"__proto__":{"polluted":1},"content":[1]}');
  assert.equal((logprobs as { polluted?: unknown }).polluted, undefined);
});
