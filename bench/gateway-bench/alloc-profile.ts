import { Session } from 'node:inspector/promises';

/**
 * Sampled allocations of this process, INCLUDING objects already collected (V8's sampling heap
 * profiler with both include-collected flags): where the garbage of a request path comes from.
 */
interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

function isNode(value: unknown): value is SampleNode {
  return (
    typeof value === 'object' && value !== null && 'callFrame' in value && 'selfSize' in value && 'children' in value
  );
}

/**
 * `survivors`: only objects that outlived a scavenge (collected by a full GC or still alive), i.e.
 * what a young-generation collection copied and promoted instead of freeing.
 */
export async function startAllocationSampling(
  options: { survivors?: boolean } = {},
): Promise<() => Promise<Map<string, number>>> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: options.survivors !== true,
  });
  return async () => {
    const result: unknown = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    const bySite = new Map<string, number>();
    const head =
      typeof result === 'object' && result !== null && 'profile' in result
        ? (result.profile as { head?: unknown }).head
        : undefined;
    const walk = (node: unknown): void => {
      if (!isNode(node)) return;
      const f = node.callFrame;
      const site = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|dist)\//, '')}:${f.lineNumber + 1}`;
      if (node.selfSize > 0) bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child);
    };
    walk(head);
    return bySite;
  };
}
