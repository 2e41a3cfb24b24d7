/** Process entry: load the config, build the app, listen; close gracefully on SIGTERM/SIGINT. */
import pino from 'pino';
import { providerDiscovery } from '../providers/index.js';
import { buildApp, createConfigRedactor, createGatewayLogger } from './app.js';
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
  let loaded;
  try {
    loaded = await loadConfig({
      path: commandLine.configPath,
      environment: process.env,
      overrides: { port: commandLine.port, host: commandLine.host },
      // Without a file, each provider kind looks in the environment (config itself knows no kind's code).
      discovery: providerDiscovery(),
    });
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
  const redactor = createConfigRedactor(config);
  const logger = createGatewayLogger(config, redactor, logDestination);
  // A stray rejection is a bug to log, not a reason to drop every live stream with the process.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
  for (const note of notes) logger.info(note);
  let app;
  try {
    app = await buildApp(config, { logger, redactor });
  } catch (error) {
    // Some settings (agent-format rules naming unknown formats) can only be checked once the app knows its formats.
    if (error instanceof ConfigError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  const closeBackstopMs = config.server.shutdownGraceMs + shutdownOverrunMs + closeBackstopMarginMs;
  // Node's default accept backlog (511) overflows when ~1,000 clients connect at once (npm run soak): the kernel
  // then drops their handshakes and they hang for a minute or more before a reset. The kernel caps it at somaxconn.
  const address = await app.listen({ host: config.server.host, port: config.server.port, backlog: 4096 });
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
      await app.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error while closing');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
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
