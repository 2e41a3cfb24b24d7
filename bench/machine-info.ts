/** What the figures were measured on: date, Node version, CPU, load, and the commit under test. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { repositoryRoot } from './child-servers.js';

export type MachineInfo = { date: string; node: string; cpu: string; cores: number; system: string; loadAverage: string; commit: string };

/** The checkout's commit, marked when its tracked files have uncommitted changes. */
export function gitCommit(root = repositoryRoot): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim();
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

export function readMachineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    date: new Date()
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC'),
    node: process.version,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    system: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' '),
    commit: gitCommit(),
  };
}
