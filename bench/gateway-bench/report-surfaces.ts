import type { ProbeResult } from './probe.js';
import { f, signed } from './report-format.js';
import type { RunReport } from './report.js';
import { median } from './stats.js';
import { surfaceLabel, type Surface } from './surfaces.js';
import type { TargetName } from './targets.js';

/** The median over a target's probe runs of one surface (or of several, pooled). */
export function probeMedian(
  r: RunReport,
  target: TargetName,
  pick: (p: ProbeResult) => number,
  surface: Surface | readonly Surface[] = 'chat',
): number {
  const surfaces: readonly Surface[] = typeof surface === 'string' ? [surface] : surface;
  return median(
    r.probeRuns.filter((p) => p.target === target && surfaces.includes(p.surface)).map((p) => pick(p.result)),
  );
}

/** Surfaces whose call the bare proxy forwards as it is; on every other it makes the same chat call. */
const BARE_FORWARDS: ReadonlySet<Surface> = new Set<Surface>(['native', 'responses-native']);

/**
 * Each surface's c=1 figures against chat's in the same run. The bare proxy makes the identical
 * chat call in the chat cell and in every translated cell, so its baseline there is the median over
 * all those cells' probes, not one cell's: a difference of two medians is otherwise as much the
 * bare proxy's spread between cells as the gateway's. Empty without Switchyard's chat probe and
 * another surface.
 */
export function surfacesAgainstChat(r: RunReport): string[] {
  const probed = [...new Set(r.probeRuns.filter((p) => p.target === 'switchyard').map((p) => p.surface))];
  if (!probed.includes('chat') || probed.length < 2 || !r.targets.includes('bare')) return [];
  const asChat = [...new Set(r.probeRuns.map((p) => p.surface))].filter((s) => !BARE_FORWARDS.has(s));
  const lines = [
    '| surface | Switchyard JSON p50 ms | × chat | Δ bare | × chat | Switchyard first chunk p50 ms | × chat | Δ bare | × chat |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const figures = (surface: Surface, pick: (p: ProbeResult) => number) => {
    const own = probeMedian(r, 'switchyard', pick, surface);
    const bare = probeMedian(r, 'bare', pick, BARE_FORWARDS.has(surface) ? surface : asChat);
    return { own, added: own - bare };
  };
  const chatJson = figures('chat', (p) => p.jsonP50Ms);
  const chatFirst = figures('chat', (p) => p.firstChunkP50Ms);
  for (const surface of probed) {
    const json = figures(surface, (p) => p.jsonP50Ms);
    const first = figures(surface, (p) => p.firstChunkP50Ms);
    lines.push(
      `| ${surfaceLabel(surface)} | ${f(json.own, 3)} | ${f(json.own / chatJson.own, 2)} | ${signed(json.added, 3)} | ${f(json.added / chatJson.added, 2)} | ${f(first.own, 3)} | ${f(first.own / chatFirst.own, 2)} | ${signed(first.added, 3)} | ${f(first.added / chatFirst.added, 2)} |`,
    );
  }
  return lines;
}
