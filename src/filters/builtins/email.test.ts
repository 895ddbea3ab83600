import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emailFilter } from './email.js';

const found = (t: string): string[] => emailFilter.find(t).map((m) => t.slice(m.start, m.end));

test('email: finds addresses with subdomains, plus tags and trailing punctuation', () => {
  assert.deepEqual(found('Mail j.smith+x@mail.example.co.uk.'), ['j.smith+x@mail.example.co.uk']);
  assert.deepEqual(found('<a@b.io>, c_d@e-f.org'), ['a@b.io', 'c_d@e-f.org']);
  assert.equal(emailFilter.find('x a@b.io')[0]?.replacement, '[EMAIL]');
});

test('email: ignores handles, package versions, retina assets and dotless domains', () => {
  for (const t of ['@sarah', 'lodash@4.17.21', 'logo@2x.png', 'root@localhost', '@types/node', 'x@y.z']) {
    assert.deepEqual(found(t), [], t);
  }
});
