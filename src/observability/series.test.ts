import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { SeriesCounter, SeriesHistogram } from './series.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const OBSERVATIONS: [string, string, number][] = [
  ['/a', '200', 0.004],
  ['/a', '200', 0.01],
  ['/b/:id', '404', 0.3],
  ['/a', '200', 0.0123456789],
  ['/a', '500', 200],
  ['/b/:id', '404', 0],
  ['/a', '200', 120],
  ['/q"uote\\', '200', 1e-9],
];

/** Both registries get the same default labels, so their merge into each line is compared too. */
function registries(): [Registry, Registry] {
  const a = new Registry();
  const b = new Registry();
  for (const r of [a, b]) r.setDefaultLabels({ replica: 'r1' });
  return [a, b];
}

test('a SeriesHistogram renders exactly what prom-client Histogram renders for the same observations', async () => {
  const [reference, ours] = registries();
  const help = 'Duration';
  const h = new Histogram({
    name: 'h_seconds',
    help,
    labelNames: ['route', 'status'],
    buckets: BUCKETS,
    registers: [reference],
  });
  const s = new SeriesHistogram<'route' | 'status'>({ name: 'h_seconds', help, buckets: BUCKETS, registers: [ours] });
  for (const [route, status, value] of OBSERVATIONS) {
    h.observe({ route, status }, value);
    s.series({ route, status }).observe(value);
  }
  assert.equal(await ours.metrics(), await reference.metrics());
  assert.deepEqual(await ours.getMetricsAsJSON(), await reference.getMetricsAsJSON());
  ours.resetMetrics();
  reference.resetMetrics();
  assert.equal(await ours.metrics(), await reference.metrics());
});

test('a SeriesCounter renders exactly what prom-client Counter renders, across scrapes', async () => {
  const [reference, ours] = registries();
  const c = new Counter({ name: 'c_total', help: 'Count', labelNames: ['route', 'status'], registers: [reference] });
  const s = new SeriesCounter<'route' | 'status'>({
    name: 'c_total',
    help: 'Count',
    labelNames: ['route', 'status'],
    registers: [ours],
  });
  const handle = s.series({ route: '/a', status: '200' });
  for (const [route, status, value] of OBSERVATIONS) {
    if (value <= 0) continue;
    c.inc({ route, status }, value);
    (route === '/a' && status === '200' ? handle : s.series({ route, status })).inc(value);
  }
  assert.equal(await ours.metrics(), await reference.metrics());
  c.inc({ route: '/a', status: '200' });
  handle.inc();
  assert.equal(await ours.metrics(), await reference.metrics(), 'a second scrape adds only what came since');
  assert.equal(s.series({ route: '/a', status: '200' }), handle, 'one handle per label set');
});
