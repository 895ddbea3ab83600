import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadServerConfig } from './env.js';

describe('loadServerConfig: SWITCHYARD_HEAP_GROWTH_PERCENT', () => {
  it('defaults to 50 (the old generation grows to 1.5× its live size), accepts 0 (V8 heuristics) and other integers', () => {
    assert.equal(loadServerConfig({}).heapGrowthPercent, 50);
    assert.equal(loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent, 0);
    assert.equal(loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: '100' }).heapGrowthPercent, 100);
  });

  it('refuses what is not an integer from 0 to 1000', () => {
    for (const bad of ['-1', '1001', '1.5', 'lots']) {
      assert.throws(() => loadServerConfig({ SWITCHYARD_HEAP_GROWTH_PERCENT: bad }), ConfigError, bad);
    }
  });
});

describe('loadServerConfig: OpenTelemetry tracing', () => {
  it('is off unless an OTLP endpoint is set or SWITCHYARD_OTEL is true', () => {
    assert.equal(loadServerConfig({}).tracing, null);
    assert.equal(loadServerConfig({ OTEL_SERVICE_NAME: 'gw' }).tracing, null);
    assert.deepEqual(loadServerConfig({ SWITCHYARD_OTEL: '1' }).tracing, {
      endpoint: 'http://localhost:4318/v1/traces',
      serviceName: 'switchyard',
      scheduleDelayMs: 5000,
      sampler: { root: 'always_on', ratio: 1, parentBased: true },
    });
  });

  it('takes the standard OTEL_TRACES_SAMPLER and its ratio; refuses unknown names and ratios', () => {
    const sampler = (env: Record<string, string>) =>
      loadServerConfig({ SWITCHYARD_OTEL: '1', ...env }).tracing?.sampler;
    assert.deepEqual(sampler({ OTEL_TRACES_SAMPLER: 'always_off' }), {
      root: 'always_off',
      ratio: 1,
      parentBased: false,
    });
    assert.deepEqual(sampler({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }), {
      root: 'traceidratio',
      ratio: 0.25,
      parentBased: true,
    });
    assert.deepEqual(sampler({ OTEL_TRACES_SAMPLER: 'TraceIdRatio' }), {
      root: 'traceidratio',
      ratio: 1,
      parentBased: false,
    });
    const refused: Record<string, string>[] = [
      { OTEL_TRACES_SAMPLER: 'jaeger_remote' },
      { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' },
      { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' },
    ];
    for (const bad of refused) assert.throws(() => sampler(bad), ConfigError, JSON.stringify(bad));
  });

  it('appends /v1/traces to the general endpoint, takes the traces endpoint as given', () => {
    const general = loadServerConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_SERVICE_NAME: 'gw',
    });
    assert.equal(general.tracing?.endpoint, 'http://collector:4318/v1/traces');
    assert.equal(general.tracing?.serviceName, 'gw');
    const traces = loadServerConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    assert.equal(traces.tracing?.endpoint, 'https://traces.example/otlp');
    assert.equal(traces.tracing?.scheduleDelayMs, 100);
  });

  it('SWITCHYARD_OTEL=false or OTEL_SDK_DISABLED=true turns it off even with an endpoint', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    assert.equal(loadServerConfig({ ...endpoint, SWITCHYARD_OTEL: 'false' }).tracing, null);
    assert.equal(loadServerConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).tracing, null);
  });

  it('refuses an endpoint that is not an http(s) URL, and the gRPC protocol', () => {
    for (const bad of ['collector:4318', 'ftp://collector', 'not a url']) {
      assert.throws(() => loadServerConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: bad }), ConfigError, bad);
    }
    assert.throws(
      () => loadServerConfig({ SWITCHYARD_OTEL: '1', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
      /OTLP over HTTP/,
    );
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
