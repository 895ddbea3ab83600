import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ipAddressFilter } from './ip-address.js';

const found = (t: string): string[] => ipAddressFilter.find(t).map((m) => t.slice(m.start, m.end));

test('ip-address: IPv4 with ports and CIDR, IPv6 full, compressed and mapped', () => {
  assert.deepEqual(found('http://192.168.1.1:8080/ and 10.0.0.0/8.'), ['192.168.1.1', '10.0.0.0']);
  assert.deepEqual(found('fe80::1ff:fe23:4567:890a, ::1 and [2001:db8::42]:443'), [
    'fe80::1ff:fe23:4567:890a',
    '::1',
    '2001:db8::42',
  ]);
  assert.deepEqual(found('mapped ::ffff:192.0.2.128 here'), ['::ffff:192.0.2.128']);
});

test('ip-address: versions, sections, times, MACs and scopes do not match', () => {
  for (const t of [
    'v2.10.300.1',
    '1.2.3.4.5',
    '10.0.0',
    'version 1.2.3.4',
    'section 3.2.1.4',
    '256.1.1.1',
    '12:30:45',
    '00:1A:2B:3C:4D:5E',
    'std::vector',
    'Foo::Bar',
    'v1.2.3.4',
  ]) {
    assert.deepEqual(found(t), [], t);
  }
});
