/**
 * What a gateway process's resident memory is made of at its peak, for a benchmark's own
 * gateway child: loaded into it with `--import`, e.g.
 *   BENCH_MEMORY_OUT=/tmp/sy-mem node dist/bench/gateway-bench/run.js --quick --targets switchyard \
 *     --cells json64,stream64 "--node-args=--import=$PWD/dist/bench/gateway-bench/memory-sampler.js"
 * Every 100 ms it reads the process's RSS; each time the RSS reaches a new high it keeps
 * process.memoryUsage(), V8's heap spaces (committed and used) and the process's mappings grouped
 * by kind (/proc/self/smaps). At exit it writes the last high to `$BENCH_MEMORY_OUT.json` and the
 * raw mappings of that moment to `$BENCH_MEMORY_OUT.smaps`. Diagnostic only: nothing else loads it.
 * Its own cost is kept out of what it measures: the mappings are read into reused buffers outside
 * V8's heap (~1.5 MB resident), never into strings that would be large objects.
 */
import { appendFileSync, closeSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8';

const MB = 1024 * 1024;
const out = process.env.BENCH_MEMORY_OUT ?? `/tmp/memory-sampler-${process.pid}`;
const mb = (bytes: number): number => Math.round((bytes / MB) * 10) / 10;

function vmRss(): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match?.[1] === undefined ? 0 : Number(match[1]) * 1024;
}

/**
 * /proc/self/smaps read into one reused buffer outside V8's heap: read as a string it is a large
 * object (0.5–1 MB) on every new high, and that garbage would inflate the very peak measured.
 */
let smapsBuffer = Buffer.alloc(4 * MB);
function readSmaps(): Buffer {
  const fd = openSync('/proc/self/smaps', 'r');
  try {
    let length = 0;
    for (;;) {
      if (length === smapsBuffer.length) {
        const bigger = Buffer.alloc(smapsBuffer.length * 2);
        smapsBuffer.copy(bigger);
        smapsBuffer = bigger;
      }
      const n = readSync(fd, smapsBuffer, length, smapsBuffer.length - length, null);
      if (n === 0) return smapsBuffer.subarray(0, length);
      length += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** RSS of the mappings by kind: V8's heap pages and malloc arenas are both anonymous; split by size and alignment. */
function mappings(smaps: Buffer): Record<string, number> {
  const groups: Record<string, number> = {};
  let kind = '';
  for (let at = 0; at < smaps.length;) {
    const eol = smaps.indexOf(10, at);
    const end = eol === -1 ? smaps.length : eol;
    const line = smaps.toString('latin1', at, end);
    at = end + 1;
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head !== null) {
      const [, from = '0', to = '0', perms = '', path = ''] = head;
      const size = parseInt(to, 16) - parseInt(from, 16);
      if (path.startsWith('/'))
        kind = path.endsWith('.node')
          ? 'native addons (.node)'
          : path.includes('/node')
            ? 'node binary'
            : 'other files';
      else if (path !== '') kind = path;
      // glibc's thread arenas are reserved 64 MB-aligned in 64 MB blocks (part of it read-write).
      else if (parseInt(from, 16) % (64 * MB) === 0 && size <= 64 * MB && perms.startsWith('rw'))
        kind = 'anon: malloc arena (64 MB-aligned)';
      else if (size >= 256 * 1024 && size % (256 * 1024) === 0)
        kind = 'anon: 256 KB multiples (V8 pages, large objects)';
      else kind = 'anon: other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss?.[1] !== undefined) groups[kind] = (groups[kind] ?? 0) + Number(rss[1]) * 1024;
  }
  return Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, mb(v)]));
}

let peak = 0;
let snapshot: Record<string, unknown> = {};
/** The mappings at the high, copied into a reused buffer (a new copy each time would churn malloc, which is measured too). */
let rawSmaps = Buffer.alloc(4 * MB);
let rawLength = 0;
const sample = (): void => {
  const rss = vmRss();
  if (rss <= peak + MB) return;
  peak = rss;
  const mu = process.memoryUsage();
  const smaps = readSmaps();
  if (rawSmaps.length < smaps.length) rawSmaps = Buffer.alloc(smaps.length * 2);
  rawLength = smaps.copy(rawSmaps);
  const threads = /^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  snapshot = {
    at: new Date().toISOString(),
    uptimeS: Math.round(process.uptime()),
    rss: mb(rss),
    threads: Number(threads),
    memoryUsage: Object.fromEntries(Object.entries(mu).map(([k, v]: [string, number]) => [k, mb(v)])),
    spaces: Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [
        s.space_name,
        { committed: mb(s.space_size), physical: mb(s.physical_space_size), used: mb(s.space_used_size) },
      ]),
    ),
    mappings: mappings(smaps),
  };
};
setInterval(sample, 100).unref();

// The heap's size right after each full collection is what was live then: its high shows how far
// the old generation grows past what it holds. Counted with the collections of each kind.
let liveAfterMajor = 0;
/** Each collection other than a scavenge, and once a second the RSS: written to `$BENCH_MEMORY_OUT.timeline`. */
const timeline: string[] = [];
setInterval(() => {
  const old = getHeapSpaceStatistics().find((sp) => sp.space_name === 'old_space');
  timeline.push(
    `${process.uptime().toFixed(1)}s rss ${mb(vmRss())}, heap used ${mb(getHeapStatistics().used_heap_size)}, old committed ${mb(old?.space_size ?? 0)}`,
  );
}, 1000).unref();
const gcCounts: Record<string, number> = {};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry.detail as { kind?: number } | undefined)?.kind;
    const name =
      kind === constants.NODE_PERFORMANCE_GC_MAJOR
        ? 'major'
        : kind === constants.NODE_PERFORMANCE_GC_MINOR
          ? 'minor'
          : `kind ${kind}`;
    gcCounts[name] = (gcCounts[name] ?? 0) + 1;
    if (name !== 'minor') {
      const old = getHeapSpaceStatistics().find((sp) => sp.space_name === 'old_space');
      timeline.push(
        `${process.uptime().toFixed(1)}s ${name} ${entry.duration.toFixed(1)} ms, rss ${mb(vmRss())}, heap used ${mb(getHeapStatistics().used_heap_size)}, old committed ${mb(old?.space_size ?? 0)}`,
      );
    }
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR)
      liveAfterMajor = Math.max(liveAfterMajor, getHeapStatistics().used_heap_size);
  }
}).observe({ entryTypes: ['gc'] });

// BENCH_MEMORY_SNAPSHOT_MB=N: one heap snapshot (`$BENCH_MEMORY_OUT.heapsnapshot`) when the RSS first passes N MB.
const snapshotAt = Number(process.env.BENCH_MEMORY_SNAPSHOT_MB ?? 0) * MB;
if (snapshotAt > 0) {
  const timer = setInterval(() => {
    if (vmRss() < snapshotAt) return;
    clearInterval(timer);
    writeHeapSnapshot(`${out}.heapsnapshot`);
  }, 100);
  timer.unref();
}
process.on('exit', () => {
  sample();
  const summary = { ...snapshot, maxUsedAfterMajorGc: mb(liveAfterMajor), gcCounts };
  writeFileSync(`${out}.json`, JSON.stringify(summary, null, 2) + '\n');
  writeFileSync(`${out}.smaps`, rawSmaps.subarray(0, rawLength));
  appendFileSync(`${out}.timeline`, timeline.join('\n') + '\n');
});
