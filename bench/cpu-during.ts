/** Runs a measurement and adds the CPU time its contender's process spent meanwhile (NaN when direct). */
import type { MeasuredProcess } from './contenders.js';

export async function cpuDuring<Result>(
  process: MeasuredProcess | undefined,
  measure: () => Promise<Result>,
): Promise<Result & { cpuMs: number }> {
  const before = process?.cpuMs() ?? Number.NaN;
  const result = await measure();
  const after = process?.cpuMs() ?? Number.NaN;
  return { ...result, cpuMs: after - before };
}
