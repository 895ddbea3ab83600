import { Counter, type Histogram, type Registry } from 'prom-client';

/**
 * Labelled series resolved once and updated with plain arithmetic on the request path.
 *
 * prom-client validates the label object, builds a hash string from it and looks it up on every
 * `inc`/`observe` (children from `labels()` too), which costs far more than the arithmetic here
 * (docs/performance.md). The text a scrape renders is the same: counters are prom-client
 * Counters whose pending increments are added when a scrape collects them; histograms render
 * exactly the values (and label order) prom-client's Histogram would.
 */

type Labels<L extends string> = Record<L, string>;

export class CounterSeries {
  /** Added since the last scrape; the scrape moves it into prom-client. */
  pending = 0;
  constructor(readonly labels: Record<string, string>) {}

  inc(by = 1): void {
    this.pending += by;
  }
}

/** A prom-client Counter fed from `CounterSeries` handles. */
export class SeriesCounter<L extends string> {
  private readonly all: CounterSeries[] = [];
  private readonly byLabels = new Map<string, CounterSeries>();

  constructor(config: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] }) {
    const all = this.all;
    new Counter<L>({
      ...config,
      labelNames: [...config.labelNames],
      collect() {
        for (const s of all) {
          if (s.pending === 0) continue;
          this.inc(s.labels as Labels<L>, s.pending);
          s.pending = 0;
        }
      },
    });
  }

  /** The handle of one label set (callers cache it: this lookup builds a key). */
  series(labels: Labels<L>): CounterSeries {
    const key = JSON.stringify(labels);
    let s = this.byLabels.get(key);
    if (s === undefined) {
      s = new CounterSeries(labels);
      this.byLabels.set(key, s);
      this.all.push(s);
    }
    return s;
  }
}

export class HistogramSeries {
  /** Observations per bucket (not cumulative); index i counts values ≤ bounds[i] and > bounds[i-1]. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  /** Finite values only (prom-client would throw; callers check). */
  observe(value: number): void {
    this.sum += value;
    this.count += 1;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= (bounds[i] as number)) {
        this.counts[i] = (this.counts[i] as number) + 1;
        return;
      }
    }
  }
}

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  /** As prom-client sets it without exemplars: null on buckets, undefined on _sum and _count. */
  exemplar: null | undefined;
}

/**
 * A histogram metric registered on a prom-client Registry. It renders as prom-client's Histogram
 * does (`series.test.ts` compares the two): per series the cumulative `_bucket{le}` lines, `+Inf`,
 * `_sum` and `_count`, per series in the order each was first used.
 */
export class SeriesHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly bounds: number[];
  private readonly all: HistogramSeries[] = [];
  private readonly byLabels = new Map<string, HistogramSeries>();

  constructor(config: { name: string; help: string; buckets: readonly number[]; registers: Registry[] }) {
    this.name = config.name;
    this.help = config.help;
    this.bounds = [...config.buckets].sort((a, b) => a - b);
    // The registry only reads name/help/type/aggregator and calls get(), getForPromString() and reset().
    for (const registry of config.registers) registry.registerMetric(this as unknown as Histogram<L>);
  }

  /** The handle of one label set (callers cache it: this lookup builds a key). */
  series(labels: Labels<L>): HistogramSeries {
    const key = JSON.stringify(labels);
    let s = this.byLabels.get(key);
    if (s === undefined) {
      s = new HistogramSeries(labels, this.bounds);
      this.byLabels.set(key, s);
      this.all.push(s);
    }
    return s;
  }

  /** The shape prom-client's Histogram gives the registry for the text format. */
  getForPromString(): Promise<{
    name: string;
    help: string;
    type: string;
    values: ExportedValue[];
    aggregator: string;
  }> {
    const values: ExportedValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.all) {
      if (s.count === 0) continue;
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += s.counts[i] as number;
        values.push({
          labels: { le: this.bounds[i] as number },
          sharedLabels: s.labels,
          value: acc,
          metricName: bucket,
          exemplar: null,
        });
      }
      values.push({
        labels: { le: '+Inf' },
        sharedLabels: s.labels,
        value: s.count,
        metricName: bucket,
        exemplar: null,
      });
      values.push({
        labels: {},
        sharedLabels: s.labels,
        value: s.sum,
        metricName: `${this.name}_sum`,
        exemplar: undefined,
      });
      values.push({
        labels: {},
        sharedLabels: s.labels,
        value: s.count,
        metricName: `${this.name}_count`,
        exemplar: undefined,
      });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  /** JSON form: each value's own labels merged with its series' labels. */
  async get(): Promise<{
    name: string;
    help: string;
    type: string;
    values: Omit<ExportedValue, 'sharedLabels'>[];
    aggregator: string;
  }> {
    const data = await this.getForPromString();
    const values = data.values.map(({ sharedLabels, labels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return { ...data, values };
  }

  reset(): void {
    for (const s of this.all) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}
