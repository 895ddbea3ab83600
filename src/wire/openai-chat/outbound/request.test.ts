import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatBody, completionBody } from './request.js';

test('body passes OpenAI fields through untouched, drops the rest, replaces model, sets stream and include_usage', () => {
  const body = chatBody(
    {
      model: 'llama-3-70b',
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.2,
      top_k: undefined,
      extra: {
        logit_bias: { '1': 2 },
        prediction: { type: 'content', content: 'x' },
        vendor_flag: { deep: true },
        stream_options: { something: 1 },
      },
    },
    true,
  );
  assert.equal(body.model, 'llama-3-70b');
  assert.equal(body.stream, true);
  assert.deepEqual(body.prediction, { type: 'content', content: 'x' });
  assert.equal('vendor_flag' in body, false, 'a field OpenAI does not declare is not sent');
  assert.deepEqual(body.stream_options, { something: 1, include_usage: true });
  assert.equal('top_k' in body, false, 'undefined fields are not sent');
  assert.equal('extra' in body, false);
  const json = chatBody({ model: 'm', messages: [], extra: { stream_options: { include_usage: true } } }, false);
  assert.equal(json.stream, false);
  assert.equal('stream_options' in json, false);
});

test('the body keeps the old key order: extras first, typed fields over them in request order, then model and stream', () => {
  const req = {
    model: 'm',
    messages: [{ role: 'user' as const, content: 'x' }],
    temperature: 0.2,
    top_p: undefined,
    max_tokens: 5,
    extra: { store: false, temperature: 9, model: 'client-said', n: 1 },
  };
  const { extra, ...typed } = req;
  const defined = Object.fromEntries(Object.entries(typed).filter(([, v]) => v !== undefined));
  assert.equal(
    JSON.stringify(chatBody(req, false)),
    JSON.stringify({ ...extra, ...defined, model: 'm', stream: false }),
  );
  const completion = { model: 'm', prompt: 'p', echo: undefined, extra: { best_of: 2 } };
  assert.equal(
    JSON.stringify(completionBody(completion, true)),
    JSON.stringify({ best_of: 2, model: 'm', prompt: 'p', stream: true, stream_options: { include_usage: true } }),
  );
});
