/**
 * The commit the lanes bench measures this tree against (issue 27), and the checkouts `--against` names:
 * a directory, `baseline`, or any commit, checked out in a worktree of its own once and kept.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repositoryRoot } from './child-servers.js';
import type { Progress } from './progress.js';

/**
 * The named baseline: 99d8c76, before the operations, hardening and Responses work added ~40–110 µs to
 * every request. Move it forward only to a commit measured faster than it, so that a slow drift made of
 * steps that each look like noise shows against a fixed point rather than against the commit before.
 */
export const baselineCommit = '99d8c76';

/** `npm ci` of a baseline whose dependencies differ from ours: bounded, a few minutes on the shared machine. */
const installTimeoutMs = 10 * 60_000;

function git(root: string, ...arguments_: string[]): string {
  return execFileSync('git', arguments_, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };

/** Whether every runtime dependency of `commit` is pinned to the same version here: then our node_modules serve it. */
function dependenciesMatch(commit: string): boolean {
  const theirs = JSON.parse(git(repositoryRoot, 'show', `${commit}:package.json`)) as Manifest;
  const ours = JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as Manifest;
  const available = { ...ours.devDependencies, ...ours.dependencies };
  return Object.entries(theirs.dependencies ?? {}).every(([name, version]) => available[name] === version);
}

/** A worktree of `commit` under the system's temporary directory, with its dependencies installed (or linked). */
function worktreeOf(commit: string, progress: Progress): string {
  const full = git(repositoryRoot, 'rev-parse', '--verify', `${commit}^{commit}`);
  const directory = path.join(os.tmpdir(), `interlingua-bench-${full.slice(0, 12)}`);
  if (!existsSync(directory)) {
    progress(`checking out ${commit} in ${directory}`);
    git(repositoryRoot, 'worktree', 'add', '--detach', directory, full);
  }
  const modules = path.join(directory, 'node_modules');
  if (existsSync(modules)) return directory;
  if (dependenciesMatch(full)) {
    progress(`${commit}: its dependencies are ours; linking this tree's node_modules`);
    symlinkSync(realpathSync(path.join(repositoryRoot, 'node_modules')), modules);
  } else {
    progress(`${commit}: its dependencies differ from ours; npm ci (up to ${installTimeoutMs / 60_000} minutes)`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: directory, stdio: 'ignore', timeout: installTimeoutMs });
  }
  return directory;
}

/** An `--against` argument as a checkout directory: an existing directory as it is; `baseline` or a commit checked out. */
export function checkoutFor(argument: string, progress: Progress): string {
  const resolved = path.resolve(argument);
  if (existsSync(resolved) && statSync(resolved).isDirectory()) return resolved;
  return worktreeOf(argument === 'baseline' ? baselineCommit : argument, progress);
}
