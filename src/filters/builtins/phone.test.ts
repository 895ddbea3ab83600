import { test } from 'node:test';
import assert from 'node:assert/strict';
import { phoneFilter } from './phone.js';

const found = (t: string): string[] => phoneFilter.find(t).map((m) => t.slice(m.start, m.end));

test('phone: international and US national formats', () => {
  assert.deepEqual(found('Call +44 20 7946 0958 or (415) 867-5309.'), ['+44 20 7946 0958', '(415) 867-5309']);
  assert.deepEqual(found('+49 30 901820'), ['+49 30 901820']);
  assert.equal(phoneFilter.find('+33 1 42 68 53 00')[0]?.replacement, '[PHONE]');
});

test('phone: ignores dates, versions, SSNs, card numbers and IPs', () => {
  for (const t of [
    'on 2023-10-12 at 10:30',
    'version 10.2.3',
    'SSN 123-45-6789',
    '4111 1111 1111 1111',
    '192.168.1.10',
    'no digits',
  ]) {
    assert.deepEqual(found(t), [], t);
  }
});
