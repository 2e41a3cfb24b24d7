/**
 * Reads `--config FILE`, `--port PORT` and `--host HOST` (with GATEWAY_CONFIG, PORT, HOST as fallbacks),
 * and `--check-config FILE` (validate and exit).
 */
import { parseArgs } from 'node:util';

export type CommandLine = { configPath?: string; port?: number; host?: string; checkConfigPath?: string };

export function parseCommandLine(argv: string[], environment: NodeJS.ProcessEnv): CommandLine {
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: 'string', short: 'c' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      'check-config': { type: 'string' },
    },
    allowPositionals: false,
    strict: true,
  });
  const result: CommandLine = {};
  if (values['check-config']) result.checkConfigPath = values['check-config'];
  const configPath = values.config ?? environment.GATEWAY_CONFIG;
  if (configPath) result.configPath = configPath;
  const port = values.port ?? environment.PORT;
  if (port !== undefined && port !== '') {
    const parsed = Number(port);
    if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new Error(`invalid port '${port}'`);
    result.port = parsed;
  }
  const host = values.host ?? environment.HOST;
  if (host) result.host = host;
  return result;
}
