/** The block log destination: lines wait for a full block or the timer, and nothing pending is lost on flush. */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogDestination } from '../src/log-destination.js';
import { sleep } from './helpers/loopback-server.js';

const directory = mkdtempSync(join(tmpdir(), 'interlingua-log-'));
const opened: number[] = [];

function logFile(name: string): { fd: number; read(): string } {
  const path = join(directory, name);
  const fd = openSync(path, 'w');
  opened.push(fd);
  return { fd, read: () => readFileSync(path, 'utf8') };
}

afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
});

process.on('exit', () => rmSync(directory, { recursive: true, force: true }));

describe('LogDestination', () => {
  it('holds lines until a block is full, then writes them all in order', () => {
    const file = logFile('blocks.log');
    const destination = new LogDestination({ fd: file.fd, blockLength: 100, flushIntervalMs: 60_000 });
    destination.write('{"n":1}\n');
    destination.write('{"n":2,"text":"ünïcode"}\n');
    expect(file.read()).toBe('');
    const long = `{"n":3,"pad":"${'x'.repeat(100)}"}\n`;
    destination.write(long);
    expect(file.read()).toBe(`{"n":1}\n{"n":2,"text":"ünïcode"}\n${long}`);
  });

  it('writes what is pending on its timer, and on flushSync', async () => {
    const file = logFile('timer.log');
    const destination = new LogDestination({ fd: file.fd, blockLength: 1_000_000, flushIntervalMs: 20 });
    destination.write('{"n":1}\n');
    const deadline = Date.now() + 5_000;
    while (file.read() === '' && Date.now() < deadline) await sleep(10);
    expect(file.read()).toBe('{"n":1}\n');
    const quiet = new LogDestination({ fd: file.fd, blockLength: 1_000_000, flushIntervalMs: 60_000 });
    quiet.write('{"n":2}\n');
    quiet.flushSync();
    expect(file.read()).toBe('{"n":1}\n{"n":2}\n');
  });
});

describe('LogDestination failures', () => {
  it('stops logging, without throwing, when its file descriptor can no longer be written', () => {
    const file = logFile('closed.log');
    const destination = new LogDestination({ fd: file.fd, blockLength: 1_000_000, flushIntervalMs: 60_000 });
    closeSync(opened.pop() as number);
    destination.write('{"n":1}\n');
    expect(() => destination.flushSync()).not.toThrow();
    destination.write('{"n":2}\n');
    expect(() => destination.flushSync()).not.toThrow();
    expect(file.read()).toBe('');
  });
});
