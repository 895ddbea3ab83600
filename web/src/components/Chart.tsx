import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

const PALETTE = [
  '#0b57d0',
  '#b3261e',
  '#146c2e',
  '#8a5300',
  '#6a1b9a',
  '#00796b',
  '#c2185b',
  '#455a64',
  '#5d4037',
  '#1565c0',
  '#7a7a00',
];

export interface ChartProps {
  title: string;
  /** Bucket start times, ISO-8601. */
  buckets: string[];
  series: ChartSeries[];
  format: (v: number) => string;
  height?: number;
}

/** A time-series line chart (uPlot, canvas). Screen readers get the title and the tables beside it. */
export function Chart({ title, buckets, series, format, height = 220 }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const xs = buckets.map((b) => Date.parse(b) / 1000);
    const data: uPlot.AlignedData = [xs, ...series.map((s) => s.values)];
    const opts: uPlot.Options = {
      width: Math.max(300, el.clientWidth),
      height,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      legend: { live: true },
      cursor: { points: { size: 6 } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: '#4d5561', grid: { stroke: '#e6e9ee' } },
        { stroke: '#4d5561', grid: { stroke: '#e6e9ee' }, size: 70, values: (_u, ticks) => ticks.map(format) },
      ],
      series: [
        { label: 'Time (UTC)' },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: PALETTE[i % PALETTE.length],
          width: 2,
          points: { show: buckets.length <= 31 },
          value: (_u: uPlot, v: number | null) => (v === null ? '—' : format(v)),
        })),
      ],
    };
    const plot = new uPlot(opts, data, el);
    const ro = new ResizeObserver(() => plot.setSize({ width: Math.max(300, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [buckets, series, height, format]);
  return (
    <figure class="panel" aria-label={title}>
      <figcaption>
        <h3>{title}</h3>
      </figcaption>
      <div ref={box} class="chart" role="img" aria-label={`${title}: line chart over ${buckets.length} time buckets`} />
    </figure>
  );
}
