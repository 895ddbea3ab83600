import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStoreUnavailable } from './unavailable.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it('recognises the database being away, directly, as a cause, or among several attempts', () => {
    assert.equal(isStoreUnavailable(coded('ECONNREFUSED')), true);
    assert.equal(isStoreUnavailable(coded('57P01', 'terminating connection due to administrator command')), true);
    assert.equal(isStoreUnavailable(new Error('Connection terminated unexpectedly')), true);
    assert.equal(isStoreUnavailable(new Error('timeout exceeded when trying to connect')), true);
    assert.equal(isStoreUnavailable(new Error('wrapped', { cause: coded('08006') })), true);
    assert.equal(isStoreUnavailable(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')])), true);
  });

  it('leaves bugs and bad data alone', () => {
    assert.equal(isStoreUnavailable(coded('23505', 'duplicate key value violates unique constraint')), false);
    assert.equal(isStoreUnavailable(new TypeError('x is not a function')), false);
    assert.equal(isStoreUnavailable('ECONNREFUSED'), false);
    assert.equal(isStoreUnavailable(null), false);
  });
});
