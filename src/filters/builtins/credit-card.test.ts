import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardIssuer, creditCardFilter, luhnValid } from './credit-card.js';

const found = (t: string): string[] => creditCardFilter.find(t).map((m) => t.slice(m.start, m.end));

test('credit-card: Luhn and issuer ranges', () => {
  assert.equal(luhnValid('4111111111111111'), true);
  assert.equal(luhnValid('4111111111111112'), false);
  const issuers: Array<[string, string]> = [
    ['4111111111111111', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'discover'],
    ['3530111333300000', 'jcb'],
    ['30569309025904', 'diners'],
    ['6200000000000005', 'unionpay'],
  ];
  for (const [pan, issuer] of issuers) assert.equal(cardIssuer(pan), issuer, pan);
  assert.equal(cardIssuer('1234567812345670'), null);
});

test('credit-card: spaces, dashes, Amex grouping and a card glued to other numbers', () => {
  assert.deepEqual(found('card 4111 1111 1111 1111 exp 09/27'), ['4111 1111 1111 1111']);
  assert.deepEqual(found('amex 3782-822463-10005.'), ['3782-822463-10005']);
  assert.deepEqual(found('ref 2024 5555 5555 5555 4444'), ['5555 5555 5555 4444']);
});

test('credit-card: order numbers failing Luhn and unknown prefixes do not match', () => {
  assert.deepEqual(found('Order #4111111111111112'), []);
  assert.deepEqual(found('ref 1234-5678-1234-5670'), []);
  assert.deepEqual(found('ts 1699999999999'), []);
});
