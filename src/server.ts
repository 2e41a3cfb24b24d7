/** Process entry: load the config, build the app, listen; reload the config on SIGHUP; close gracefully on SIGTERM/SIGINT. */
// First: V8 settings that must hold before anything is allocated.
import './v8-settings.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { providerDiscovery } from '../providers/index.js';
import type { GatewayConfig } from './config/config-types.js';
import { LiveGateway } from './live-gateway.js';
import { serverTimeoutOptions } from './plugins/server-timeouts.js';
import { buildApp, createConfigRedactor, createGatewayLogger, createLastingState } from './app.js';
import { ConfigError } from './config/config-error.js';
import { loadConfig } from './config/load-config.js';
import { createLogDestination } from './log-destination.js';
import { parseCommandLine } from './parse-command-line.js';
import { shutdownOverrunMs } from './plugins/live-streams.js';

/** Past the close's own bound: room for the upstream pools to close. */
const closeBackstopMarginMs = 10_000;

async function main(): Promise<void> {
  const bootLogger = pino({ level: 'info' });
  let commandLine;
  try {
    commandLine = parseCommandLine(process.argv.slice(2), process.env);
  } catch (error) {
    bootLogger.fatal(`${(error as Error).message}. Usage: npm start -- [--config FILE] [--port PORT] [--host HOST]`);
    process.exit(2);
  }
  if (commandLine.checkConfigPath) process.exit(await checkConfig(commandLine.checkConfigPath, bootLogger));
  const readConfig = () =>
    loadConfig({
      path: commandLine.configPath,
      environment: process.env,
      overrides: { port: commandLine.port, host: commandLine.host },
      // Without a file, each provider kind looks in the environment (config itself knows no kind's code).
      discovery: providerDiscovery(),
    });
  let loaded;
  try {
    loaded = await readConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      bootLogger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { config, notes } = loaded;
  const logDestination = createLogDestination();
  // One redactor for the log and the app's error messages: no configured secret leaves the process.
  // Each config (a reload's too) gets its own, since its secrets are the ones to hide.
  const loggerFor = (current: GatewayConfig) => {
    const redactor = createConfigRedactor(current);
    return { redactor, logger: createGatewayLogger(current, redactor, logDestination) };
  };
  const { logger } = loggerFor(config);
  // A stray rejection is a bug to log, not a reason to drop every live stream with the process.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
  for (const note of notes) logger.info(note);
  const lasting = createLastingState();
  const live: LiveGateway = new LiveGateway({
    loadConfig: async () => (await readConfig()).config,
    buildApp: (current, serverFactory) => buildApp(current, { ...loggerFor(current), serverFactory, reload: () => live.reload(), lasting }),
    log: logger,
    serverOptions: serverTimeoutOptions(config.server, config.server.shutdownGraceMs).http,
    redactorFor: createConfigRedactor,
  });
  try {
    await live.start(config);
  } catch (error) {
    // Some settings (agent-format rules naming unknown formats) can only be checked once the app knows its formats.
    if (error instanceof ConfigError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  const closeBackstopMs = config.server.shutdownGraceMs + shutdownOverrunMs + closeBackstopMarginMs;
  let address;
  try {
    address = await listen(live.server, config.server.host, config.server.port);
  } catch (error) {
    // A port taken or not ours is the operator's to fix: one line saying so, not a stack trace.
    const explained = listenFailureMessage(error as NodeJS.ErrnoException, config.server.host, config.server.port);
    if (explained === undefined) throw error;
    logger.fatal(explained);
    logDestination.flushSync();
    process.exit(1);
  }
  logger.info({ providers: Object.keys(config.providers), auth: config.server.apiKeys.length > 0 }, `Interlingua listening on ${address}`);
  // Start-up lines now, not at the first periodic flush: whoever started the gateway is watching for them.
  logDestination.flushSync();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info(`${signal}: closing`);
    // app.close() is bounded (grace, then error frames, then lingering connections closed); should a hook
    // still hang, the process must not outlive whoever is waiting for it to stop.
    const backstop = setTimeout(() => {
      logger.error(`close did not finish within ${closeBackstopMs} ms; exiting`);
      process.exit(1);
    }, closeBackstopMs);
    backstop.unref();
    try {
      await live.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error while closing');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // A reload's outcome is logged by the gateway (a failed one too); the signal has no one to answer.
  process.on('SIGHUP', () => {
    if (!closing) void live.reload().catch((error: unknown) => logger.error({ err: error }, 'config reload failed'));
  });
}

/**
 * Node's default accept backlog (511) overflows when ~1,000 clients connect at once (npm run soak): the kernel
 * then drops their handshakes and they hang for a minute or more before a reset. The kernel caps it at somaxconn.
 */
function listen(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, backlog: 4096 }, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`http://${shownHost}:${address.port}`);
    });
  });
}

/** The one line for a listen that failed for a reason the operator can fix; undefined for any other. */
function listenFailureMessage(error: NodeJS.ErrnoException, host: string, port: number): string | undefined {
  const where = `port ${port} on ${host}`;
  if (error.code === 'EADDRINUSE')
    return `${where} is in use: ${error.message} (stop what holds it, or pick another with --port or server.port)`;
  if (error.code === 'EACCES') return `${where} may not be opened by this user: ${error.message}`;
  if (error.code === 'EADDRNOTAVAIL') return `${where}: no such address on this machine: ${error.message}`;
  return undefined;
}

/** `--check-config FILE`: everything a start checks (the file, then what only the built app can), without listening. */
async function checkConfig(path: string, logger: pino.Logger): Promise<number> {
  try {
    const { config } = await loadConfig({ path, environment: process.env });
    const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
    await app.close();
    logger.info(`config ${path} is valid: providers ${Object.keys(config.providers).join(', ') || '(none)'}`);
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.fatal(error.message);
    return 1;
  }
}

await main();
