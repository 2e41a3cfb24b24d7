/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and ranks time by function and by area (a
 * package, a Node internal module, or a directory of this repository): self time, and for areas also
 * the time they were anywhere on the synchronous stack. Samples can be limited to a window given in
 * the profile's clock, which is CLOCK_MONOTONIC in µs on Linux, the same clock as `process.hrtime`,
 * so the load generator can cut out the gateway's start-up and shutdown.
 */
import { repositoryRoot } from './child-servers.js';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
export type CpuProfile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

/** `share` is of busy time; `onStackMs` (areas only) counts samples with the area anywhere on the stack. */
export type Hotspot = { name: string; selfMs: number; share: number; onStackMs?: number };
/** `(idle)` samples (the event loop waiting) are counted apart from busy time. */
export type ProfileSummary = { busyMs: number; idleMs: number; functions: Hotspot[]; areas: Hotspot[] };
export type SampleWindow = { startUs: number; endUs: number };

/** The checkout's directory as a file URL ending in a slash, so that paths under it come out relative. */
function rootUrl(root: string): string {
  return `file://${root.endsWith('/') ? root : `${root}/`}`;
}

/** `node_modules/@scope/name/…` → `@scope/name`; `node:internal/streams/readable` → `node:internal/streams`. */
function areaOf(frame: CallFrame, root: string): string {
  const repositoryUrl = rootUrl(root);
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(V8 builtins and native code)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [first = '', second = ''] = url.slice(modules + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (url.startsWith('node:')) {
    const parts = url.split('/');
    return parts[0] === 'node:internal' && parts.length > 2 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
  }
  if (url.startsWith(repositoryUrl)) {
    const relative = url.slice(repositoryUrl.length);
    return relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : relative;
  }
  return url;
}

function shortLocation(frame: CallFrame, root: string): string {
  const { url } = frame;
  const repositoryUrl = rootUrl(root);
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) return `${url.slice(modules + 1)}:${frame.lineNumber + 1}`;
  // Repository files run through tsx, whose output lines do not match the TypeScript source.
  return url.startsWith(repositoryUrl) ? url.slice(repositoryUrl.length) : `${url}:${frame.lineNumber + 1}`;
}

/** `root`: the checkout the profiled gateway ran from, whose files are named relative to it. */
export function functionKey(frame: CallFrame, root: string = repositoryRoot): string {
  const name = frame.functionName || '(anonymous)';
  return frame.url === '' ? name : `${name} ${shortLocation(frame, root)}`;
}

/** For each node, the distinct areas on its stack (itself and its ancestors). */
function areasOnStack(profile: CpuProfile, root: string): Map<number, Set<string>> {
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const result = new Map<number, Set<string>>();
  const resolve = (id: number): Set<string> => {
    const known = result.get(id);
    if (known) return known;
    const parent = parents.get(id);
    const areas = new Set(parent === undefined ? [] : resolve(parent));
    const frame = frames.get(id);
    if (frame && !frame.functionName.startsWith('(') && frame.url !== '') areas.add(areaOf(frame, root));
    result.set(id, areas);
    return areas;
  };
  for (const node of profile.nodes) resolve(node.id);
  return result;
}

function add(totals: Map<string, number>, key: string, value: number): void {
  totals.set(key, (totals.get(key) ?? 0) + value);
}

/**
 * The most one sample stands for: four times the median interval. On a loaded machine the process is
 * sometimes descheduled for hundreds of milliseconds, and the next sample would credit all that absence
 * to whichever function happened to be running (a one-line helper showing up at 300 µs per request).
 */
function longestCreditedSample(timeDeltas: readonly number[]): number {
  const positive = timeDeltas.filter((delta) => delta > 0).sort((left, right) => left - right);
  return positive.length === 0 ? Number.POSITIVE_INFINITY : 4 * positive[Math.floor(positive.length / 2)]!;
}

export function summariseCpuProfile(
  profile: CpuProfile,
  options: { window?: SampleWindow; limit?: number; root?: string } = {},
): ProfileSummary {
  const root = options.root ?? repositoryRoot;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const stacks = areasOnStack(profile, root);
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  const onStack = new Map<string, number>();
  let busyUs = 0;
  let idleUs = 0;
  let timestamp = profile.startTime;
  const longestSampleUs = longestCreditedSample(profile.timeDeltas);
  for (let index = 0; index < profile.samples.length; index++) {
    const gap = profile.timeDeltas[index] ?? 0;
    timestamp += gap;
    const delta = Math.min(gap, longestSampleUs);
    if (options.window && (timestamp < options.window.startUs || timestamp > options.window.endUs)) continue;
    const id = profile.samples[index]!;
    const frame = frames.get(id);
    if (!frame) continue;
    // A sample stands for the interval that led up to it.
    if (frame.functionName === '(idle)') {
      idleUs += delta;
      continue;
    }
    busyUs += delta;
    add(byFunction, functionKey(frame, root), delta);
    add(byArea, areaOf(frame, root), delta);
    for (const area of stacks.get(id) ?? []) add(onStack, area, delta);
  }
  const busyMs = busyUs / 1000;
  const limit = options.limit ?? 25;
  const rank = (totals: Map<string, number>) =>
    [...totals]
      .sort((left, right) => right[1] - left[1])
      .slice(0, limit)
      .map(([name, microseconds]): Hotspot => ({ name, selfMs: microseconds / 1000, share: microseconds / 1000 / busyMs }));
  const areas = rank(byArea).map((area) => ({ ...area, onStackMs: (onStack.get(area.name) ?? 0) / 1000 }));
  return { busyMs, idleMs: idleUs / 1000, functions: rank(byFunction), areas };
}
