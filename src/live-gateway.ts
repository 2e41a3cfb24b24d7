/**
 * One listening HTTP server in front of the current app. A reload (SIGHUP, `POST /admin/reload`) reads
 * the config file again, builds a whole new app from it and sends new requests there; the old app
 * finishes what it started (its streams run to their end on the config they began with) and is then
 * closed. A file that fails validation is refused, and a new app that fails as it is built or started is
 * closed; either way the running app is kept.
 *
 * A new app rather than patched parts: keys, limits, aliases, deployments, prices and providers are read
 * by many mechanisms, and building them all again from one config is the one way none is forgotten.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { ConfigError } from './config/config-error.js';
import { lingeringConnectionsMs } from './plugins/live-streams.js';
import { continueOnlyWithinBodyLimit } from './plugins/expect-continue.js';
import type { GatewayConfig } from './config/config-types.js';

/** What building one app gives: the app, and the request handler fastify made for it. */
declare module 'fastify' {
  interface FastifyInstance {
    /** How many generations the app is still serving (its live streams and pending replies): app.ts decorates it. */
    liveGenerations?: () => number;
    /** Marks the app replaced by a reload (app.ts decorates it): its WebSocket connections start no new turn. */
    retire?: () => void;
    isRetired?: () => boolean;
  }
}

export type BuiltApp = { app: FastifyInstance; handle: RequestListener; detached: Server };

/**
 * Refused: `config_invalid` when the file (or a setting only the built app can check) is wrong, which the
 * operator fixes in the file; `reload_failed` when the new app failed for another reason as it was built or
 * started. Either way the running app goes on serving. `reason` has the new config's secrets redacted.
 */
export type ReloadOutcome = { reloaded: true } | { reloaded: false; refusal: 'config_invalid' | 'reload_failed'; reason: string };

/** Hides a config's secrets in text bound for a log or a client (app.ts' createConfigRedactor). */
export type ConfigRedaction = (config: GatewayConfig) => { redact(text: string): string };

export type LiveGatewayOptions = {
  /** Reads and validates the config file; throws a ConfigError when it is invalid. */
  loadConfig(): Promise<GatewayConfig>;
  /** Builds an app for a config; `serverFactory` hands fastify a server that never listens itself. */
  buildApp(config: GatewayConfig, serverFactory: (handler: RequestListener) => Server): Promise<FastifyInstance>;
  log: PinoLogger;
  /** The listening server's own limits (request and headers timeouts): they belong to the socket, not to an app. */
  serverOptions: ServerOptions;
  /** How often a replaced app is checked for generations still running (default 1 s). */
  drainCheckMs?: number;
  /** Redacts the secrets of the config a failed reload read from its reason; nothing is redacted without it. */
  redactorFor?: ConfigRedaction;
};

/**
 * Settings that belong to the listening socket, which a reload keeps (docs/live-reload.md): a file that
 * changes them is applied without them, and the log says so rather than leaving the operator to wonder.
 */
const socketSettings = ['host', 'port', 'requestTimeoutMs', 'headersTimeoutMs'] as const;

type SocketSettings = Pick<GatewayConfig['server'], (typeof socketSettings)[number]>;

/** `server.port 8080 → 8081`, for each socket setting the new config changes. */
function changedSocketSettings(running: SocketSettings, next: SocketSettings): string[] {
  return socketSettings.filter((name) => running[name] !== next[name]).map((name) => `server.${name} ${running[name]} → ${next[name]}`);
}

export class LiveGateway {
  readonly server: Server;
  private current: BuiltApp | undefined;
  /** The socket's settings, from the config the gateway started with. */
  private socket: SocketSettings | undefined;
  private readonly draining = new Set<FastifyInstance>();
  private reloading: Promise<ReloadOutcome> | undefined;
  /** The reload asked for while one ran: it runs once that one ends. */
  private queued: Promise<ReloadOutcome> | undefined;

  constructor(private readonly options: LiveGatewayOptions) {
    this.server = createServer(options.serverOptions, (request, response) => this.handle(request, response));
    continueOnlyWithinBodyLimit(this.server, () => this.current?.app.initialConfig.bodyLimit);
    // The Responses WebSocket mode: @fastify/websocket listens for upgrades on the app's own server.
    this.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (this.current) this.current.detached.emit('upgrade', request, socket, head);
      else socket.destroy();
    });
  }

  get app(): FastifyInstance {
    if (!this.current) throw new Error('the gateway has no app yet');
    return this.current.app;
  }

  /** Builds the first app (the caller then listens on `server`). */
  async start(config: GatewayConfig): Promise<FastifyInstance> {
    this.socket = config.server;
    this.current = await this.build(config);
    return this.current.app;
  }

  /**
   * One reload at a time. A signal during a reload may follow an edit that the running one read too early
   * to see, so it gets one more reload once the running one ends; every signal until then shares that one.
   */
  reload(): Promise<ReloadOutcome> {
    if (!this.reloading) return this.startReload();
    this.queued ??= this.reloading.then(
      () => this.startQueued(),
      () => this.startQueued(),
    );
    return this.queued;
  }

  private startReload(): Promise<ReloadOutcome> {
    this.reloading = this.reloadOnce().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private startQueued(): Promise<ReloadOutcome> {
    this.queued = undefined;
    return this.startReload();
  }

  /** Closes the current app and any still draining (their own close waits for their streams, bounded by the grace). */
  async close(): Promise<void> {
    // No new connections from now on; idle ones close, busy ones end with their requests.
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const apps = [...this.draining, ...(this.current ? [this.current.app] : [])];
    await Promise.all(apps.map((app) => app.close()));
    // The apps answered or aborted everything they served: a connection still open is a client that lingers.
    const lingering = setTimeout(() => this.server.closeAllConnections(), lingeringConnectionsMs);
    lingering.unref();
    await closed;
    clearTimeout(lingering);
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    if (this.current) this.current.handle(request, response);
    else response.writeHead(503).end();
  }

  private async reloadOnce(): Promise<ReloadOutcome> {
    const { log } = this.options;
    let config: GatewayConfig | undefined;
    let next: BuiltApp;
    try {
      config = await this.options.loadConfig();
      next = await this.build(config);
    } catch (error) {
      if (error instanceof ConfigError) {
        log.error({ reason: error.message }, 'config reload refused: the running config is kept');
        return { reloaded: false, refusal: 'config_invalid', reason: error.message };
      }
      // Not the file's fault as far as anyone can tell (a connection refused, a bug): said as a failure,
      // with its cause, rather than as the config's fault or a bare internal error. The running logger knows
      // only the running config's secrets, so the new config's are taken out here.
      const message = error instanceof Error ? error.message : String(error);
      const reason = config && this.options.redactorFor ? this.options.redactorFor(config).redact(message) : message;
      log.error({ reason }, 'config reload failed: the running config is kept');
      return { reloaded: false, refusal: 'reload_failed', reason };
    }
    const previous = this.current;
    this.current = next;
    log.info('config reloaded: new requests use it; live streams finish on the config they started with');
    const kept = this.socket ? changedSocketSettings(this.socket, config.server) : [];
    if (kept.length) log.warn({ kept }, 'config reloaded without its listening-socket settings: they change on a restart');
    if (previous) this.retire(previous.app);
    return { reloaded: true };
  }

  private async build(config: GatewayConfig): Promise<BuiltApp> {
    let handle: RequestListener | undefined;
    const detached = createServer();
    const app = await this.options.buildApp(config, (handler) => {
      handle = handler;
      return detached;
    });
    try {
      await app.ready();
      if (!handle) throw new Error('the app was built without the live server factory');
      return { app, handle, detached };
    } catch (error) {
      // Its onReady hooks may have started probes, timers and connections: an app that never serves is
      // closed, so that a failed reload leaves nothing running beside the app that goes on serving.
      await app
        .close()
        .catch((closeError: unknown) => this.options.log.error({ err: closeError }, 'closing an app that failed to start failed'));
      throw error;
    }
  }

  /** Closes a replaced app once nothing it started is still running. */
  private retire(app: FastifyInstance): void {
    app.retire?.();
    this.draining.add(app);
    const check = setInterval(() => {
      if ((app.liveGenerations?.() ?? 0) > 0) return;
      clearInterval(check);
      this.draining.delete(app);
      app.close().catch((error: unknown) => this.options.log.error({ err: error }, 'closing a replaced app failed'));
    }, this.options.drainCheckMs ?? 1_000);
    check.unref();
  }
}
