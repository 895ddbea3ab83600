import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Linux /proc readings of a benchmark process (null where /proc is unavailable). */

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return match?.[1] === undefined ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

/** Resident set size now, bytes. */
export const rssBytes = (pid: number): number | null => statusField(pid, 'VmRSS');
/** Peak resident set size since the process started, bytes. */
export const peakRssBytes = (pid: number): number | null => statusField(pid, 'VmHWM');

let ticksPerSecond: number | null = null;
function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU time of the process so far, seconds. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(rest[11]);
    const stime = Number(rest[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return (utime + stime) / clockTicks();
  } catch {
    return null;
  }
}

/**
 * Starts counting a process's CPU time; the returned function gives the µs used since, per unit
 * of work (requests, call pairs), or null when the process's time cannot be read or units is 0.
 */
export function cpuClock(pid: number | null): (units: number) => number | null {
  const before = pid === null ? null : cpuSeconds(pid);
  return (units) => {
    const after = pid === null ? null : cpuSeconds(pid);
    return before === null || after === null || units <= 0 ? null : ((after - before) * 1e6) / units;
  };
}

/** Pins every thread of a running process to the given cores (best effort). */
export function pinProcess(pid: number, cores: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
