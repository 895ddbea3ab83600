/**
 * Summarises a V8 .cpuprofile (from `--cpu-prof`) as Markdown: busy time by area (self and
 * inclusive), and the hottest functions. Areas: Switchyard source directories, npm packages,
 * Node internals, GC.
 *   node dist/bench/gateway-bench/profile-summary.js <file.cpuprofile> [requests] [skip-ms]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function isProfile(value: unknown): value is CpuProfile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.nodes) && Array.isArray(v.samples) && Array.isArray(v.timeDeltas);
}

/** The area a frame belongs to: `src/<dir>`, `<npm package>`, `node:<module>`, or a V8 pseudo-frame. */
export function areaOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg?.[1] !== undefined) return pkg[1];
  const own = /\/dist\/(src|bench)\/([^/]+)\//.exec(url);
  if (own?.[1] !== undefined && own[2] !== undefined) return `${own[1]}/${own[2]}`;
  const internal = /^node:(?:internal\/)?([^/]+)/.exec(url);
  if (internal?.[1] !== undefined) return `node:${internal[1]}`;
  return url.split('/').slice(-2).join('/');
}

function location(frame: ProfileNode['callFrame']): string {
  const file = frame.url.replace(/^.*\/(node_modules|dist)\//, '').replace(/^file:\/\//, '');
  return file === '' ? '' : `${file}:${frame.lineNumber + 1}`;
}

/** `skipMs`: ignore the first milliseconds of the profile (start-up: module loading, schema compilation). */
export function summarise(profile: CpuProfile, requests: number | null, skipMs = 0): string {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) byId.set(n.id, n);
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= skipMs * 1000) self.set(id, (self.get(id) ?? 0) + delta);
  });

  let busy = 0;
  const areaSelf = new Map<string, number>();
  const areaIncl = new Map<string, number>();
  const fnSelf = new Map<string, number>();
  const fnIncl = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (node === undefined || node.callFrame.functionName === '(idle)') continue;
    busy += us;
    const area = areaOf(node.callFrame);
    areaSelf.set(area, (areaSelf.get(area) ?? 0) + us);
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${location(node.callFrame)}`.trim();
    fnSelf.set(fn, (fnSelf.get(fn) ?? 0) + us);
    const seen = new Set<string>();
    const seenFn = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      if (frame === undefined) break;
      const a = areaOf(frame);
      if (!seen.has(a)) {
        seen.add(a);
        areaIncl.set(a, (areaIncl.get(a) ?? 0) + us);
      }
      if (frame.url.includes('/dist/src/')) {
        const name = `${frame.functionName || '(anonymous)'} ${location(frame)}`;
        if (!seenFn.has(name)) {
          seenFn.add(name);
          fnIncl.set(name, (fnIncl.get(name) ?? 0) + us);
        }
      }
    }
  }
  const pct = (us: number) => ((100 * us) / busy).toFixed(1);
  const perReq = (us: number) => (requests === null ? '' : ` | ${(us / requests).toFixed(1)}`);
  const head = requests === null ? '' : ' | µs/request';
  const sep = requests === null ? '' : '|---:';
  const areas = [...areaSelf.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  const fns = [...fnSelf.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  const incl = [...fnIncl.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  return [
    `Busy (non-idle) CPU: ${(busy / 1e6).toFixed(2)} s${requests === null ? '' : ` over ${requests.toLocaleString('en-US')} requests = ${(busy / requests).toFixed(1)} µs/request`}.`,
    '',
    `| area | self % | inclusive %${head} (self) |`,
    `|---|---:|---:${sep}|`,
    ...areas.map(([a, us]) => `| ${a} | ${pct(us)} | ${pct(areaIncl.get(a) ?? 0)}${perReq(us)} |`),
    '',
    `| function (self time) | % |`,
    '|---|---:|',
    ...fns.map(([f, us]) => `| \`${f}\` | ${pct(us)} |`),
    '',
    `| Switchyard function (inclusive: itself and what it calls) | %${head} |`,
    `|---|---:${sep}|`,
    ...incl.map(([f, us]) => `| \`${f}\` | ${pct(us)}${perReq(us)} |`),
    '',
  ].join('\n');
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: profile-summary <file.cpuprofile> [requests]');
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isProfile(parsed)) throw new Error(`${file} is not a V8 CPU profile`);
  const requests = process.argv[3] === undefined ? null : Number(process.argv[3]);
  process.stdout.write(summarise(parsed, requests, Number(process.argv[4] ?? 0)));
}
