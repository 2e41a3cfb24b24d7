/**
 * Reads a sampling heap profile (HeapProfiler.stopSampling, objects freed by garbage collection
 * included) and ranks the bytes allocated by the function that allocated them, as
 * cpu-profile-summary.ts ranks self time.
 */
import { functionKey } from './cpu-profile-summary.js';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type AllocationNode = { callFrame: CallFrame; selfSize: number; children: AllocationNode[] };
export type AllocationProfile = { head: AllocationNode };

export type AllocationHotspot = { name: string; bytes: number; share: number };
export type AllocationSummary = { totalBytes: number; functions: AllocationHotspot[] };

export function summariseAllocationProfile(profile: AllocationProfile, root: string, limit = 20): AllocationSummary {
  const byFunction = new Map<string, number>();
  let totalBytes = 0;
  const pending: AllocationNode[] = [profile.head];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.selfSize > 0) {
      const key = functionKey(node.callFrame, root);
      byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
      totalBytes += node.selfSize;
    }
    pending.push(...node.children);
  }
  const functions = [...byFunction]
    .sort((left, right) => right[1] - left[1])
    .slice(0, limit)
    .map(([name, bytes]) => ({ name, bytes, share: bytes / Math.max(1, totalBytes) }));
  return { totalBytes, functions };
}
