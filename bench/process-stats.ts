/** Resident memory and CPU time of another process, read from /proc (Linux), with `ps` as a fallback. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let clockTicksPerSecond: number | undefined;

function ticksPerSecond(): number {
  if (clockTicksPerSecond === undefined) {
    try {
      clockTicksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicksPerSecond = 100;
    }
  }
  return clockTicksPerSecond;
}

export function readRssKb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // not Linux: ask ps
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
}

/** The process's peak resident memory so far (VmHWM), in kB; NaN where /proc is not there. */
export function readPeakRssKb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU time in milliseconds (resolution: one clock tick, usually 10 ms); NaN when unknown. */
export function readCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / ticksPerSecond();
  } catch {
    return Number.NaN;
  }
}
