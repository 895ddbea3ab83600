import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileFilterSet, type CompiledFilterSet } from '../filters/index.js';
import { isGatewayError } from '../errors/index.js';
import { screenRequest } from './content-scan.js';
import type { ChatRequestBody, CompletionRequestBody } from '../canonical/index.js';

/** A set with one detector that always throws, as a broken filter would. */
const broken: CompiledFilterSet = {
  filters: [
    {
      key: 'custom:boom',
      name: 'boom',
      action: 'redact',
      scope: 'all_messages',
      filter: {
        id: 'boom',
        label: '[X]',
        find: () => {
          throw new RangeError('detector bug');
        },
      },
    },
  ],
};
const emails = compileFilterSet({ builtins: [{ slug: 'email', action: 'redact' }], custom: [] });
const chat = (content: string | { type: string; text?: string }[]): ChatRequestBody => ({
  model: 'm',
  messages: [{ role: 'user', content }],
});

describe('screenRequest', () => {
  it('fails closed: a detector error refuses the request with a clear 503 that quotes no text', () => {
    assert.throws(
      () => screenRequest({ kind: 'chat', body: chat('secret a@b.io'), filters: broken, failOpen: false }),
      (e: unknown) =>
        isGatewayError(e) && e.status === 503 && !e.message.includes('secret') && e.metadata?.filter === 'boom',
    );
  });

  it('fails open only when configured, forwarding the text unscreened by that filter', () => {
    const out = screenRequest({ kind: 'chat', body: chat('secret'), filters: broken, failOpen: true });
    assert.deepEqual(out.flags, []);
  });

  it('returns the same body object when nothing matched, and never mutates the input', () => {
    const clean = chat('nothing to see');
    assert.equal(screenRequest({ kind: 'chat', body: clean, filters: emails, failOpen: false }).body, clean);
    const parts = chat([
      { type: 'text', text: 'to a@b.io' },
      { type: 'text', text: 'untouched' },
    ]);
    const before = JSON.stringify(parts);
    const out = screenRequest({ kind: 'chat', body: parts, filters: emails, failOpen: false });
    assert.equal(JSON.stringify(parts), before, 'input not mutated');
    assert.match(JSON.stringify(out.body), /to \[EMAIL\]/);
    assert.equal(out.redactions, 1);
  });

  it('screens each prompt of a legacy prompt array', () => {
    const body: CompletionRequestBody = { model: 'm', prompt: ['a@b.io', 'plain', 'c@d.io'] };
    const out = screenRequest({ kind: 'completion', body, filters: emails, failOpen: false });
    assert.deepEqual(out.body.prompt, ['[EMAIL]', 'plain', '[EMAIL]']);
  });
});
