/**
 * Debian's `redis-server` on loopback, on a free port, with nothing on disk (`--save '' --appendonly no`),
 * for the shared-state tests. It can be stopped and started again on the same port (an outage, then
 * recovery). Without the binary, `redisServerPath` is undefined and the tests say SKIPPED and why.
 * No vitest in here: `npm run bench:state` and `npm run soak -- --replicas 2` start their Redis with it too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { freePort } from './gateway-process.js';
import { sleep } from './loopback-server.js';

export const redisServerPath = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));

/** Call at the top of a test file that needs Redis: a loud line when its tests will be skipped. */
export function warnWhenRedisIsMissing(what: string): void {
  if (!redisServerPath)
    console.warn(`SKIPPED ${what}: no redis-server at /usr/bin/redis-server (apt-get install redis-server; .ci/run does this)`);
}

/** One PING over a raw socket: true when Redis answers PONG. */
async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(500, () => socket.destroy());
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      // Without AUTH a password-protected Redis answers -NOAUTH: it is up all the same.
      resolve(/^(\+PONG|-NOAUTH)/.test(data.toString()));
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

export class RedisServer {
  private child: ChildProcess | undefined;
  private output = '';

  private constructor(
    readonly port: number,
    private readonly password: string | undefined,
  ) {}

  /** `password`: Redis then requires it (`--requirepass`), and `url` carries it. */
  static async start(options: { password?: string } = {}): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), options.password);
    await server.start();
    return server;
  }

  /** The running redis-server's pid (for CPU figures), undefined while stopped. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** `redis://127.0.0.1:PORT/0`, with the password when there is one. */
  get url(): string {
    return `redis://${this.password ? `:${encodeURIComponent(this.password)}@` : ''}127.0.0.1:${this.port}/0`;
  }

  /** Starts (again) on the same port and resolves once it answers PING. */
  async start(): Promise<void> {
    if (!redisServerPath) throw new Error('no redis-server binary');
    const settings = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      ...(this.password ? ['--requirepass', this.password] : []),
    ];
    const child = spawn(redisServerPath, settings, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    const deadline = Date.now() + 20_000;
    while (!(await answersPing(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on ${this.port}:\n${this.output}`);
      await sleep(50);
    }
  }

  /** SIGSTOP: connections stay open and nothing answers (a stalled Redis); `resume` sends SIGCONT. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** SIGKILL, as an outage looks to a client: connections reset, nothing answers. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}
