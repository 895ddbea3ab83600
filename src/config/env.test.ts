import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadServerConfig } from './env.js';

describe('loadServerConfig: SWITCHYARD_HEAP_GROWTH_PERCENT', () => {
  it('defaults to 0 (V8 heuristics), accepts other integers', () => {
    assert.equal(loadServerConfig({}).heapGrowthPercent, 0);
    assert.equal(loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: '50' }).heapGrowthPercent, 50);
    assert.equal(loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: '100' }).heapGrowthPercent, 100);
  });

  it('refuses what is not an integer from 0 to 1000', () => {
    for (const bad of ['-1', '1001', '1.5', 'lots']) {
      assert.throws(() => loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: bad }), ConfigError, bad);
    }
  });
});

describe('loadServerConfig: upstream answer limits and slow-client timeouts', () => {
  it('defaults: 8 MiB body, 1 MiB event, 10 s headers, 60 s request', () => {
    const config = loadServerConfig({});
    assert.equal(config.upstreamMaxBodyBytes, 8 * 1024 * 1024);
    assert.equal(config.upstreamMaxEventBytes, 1024 * 1024);
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.requestTimeoutMs, 60_000);
  });

  it('reads each variable and refuses a request timeout shorter than the headers timeout', () => {
    const config = loadServerConfig({
      SWITCHYARD_UPSTREAM_MAX_BODY_BYTES: '4096',
      SWITCHYARD_UPSTREAM_MAX_EVENT_BYTES: '2048',
      SWITCHYARD_HEADERS_TIMEOUT_MS: '2000',
      SWITCHYARD_REQUEST_TIMEOUT_MS: '0',
    });
    assert.deepEqual(
      [config.upstreamMaxBodyBytes, config.upstreamMaxEventBytes, config.headersTimeoutMs, config.requestTimeoutMs],
      [4096, 2048, 2000, 0],
    );
    assert.throws(
      () => loadServerConfig({ SWITCHYARD_HEADERS_TIMEOUT_MS: '20000', SWITCHYARD_REQUEST_TIMEOUT_MS: '10000' }),
      ConfigError,
    );
    assert.throws(() => loadServerConfig({ SWITCHYARD_UPSTREAM_MAX_EVENT_BYTES: '10' }), ConfigError);
  });
});
