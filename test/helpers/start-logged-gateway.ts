/** The gateway as server.ts builds it (one redactor for the app and its logger), its log lines captured, on 127.0.0.1:0. */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, createConfigRedactor, createGatewayLogger } from '../../src/app.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import type { TestConfigFile } from './start-gateway.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

export type LoggedGateway = {
  app: FastifyInstance;
  baseUrl: string;
  /** Every line the logger wrote, as written (after redaction). */
  lines: string[];
  close(): Promise<void>;
};

export async function startLoggedGateway(file: TestConfigFile): Promise<LoggedGateway> {
  const config = normalizeConfig(validateConfigFile(file), { host: '127.0.0.1', port: 0 });
  const lines: string[] = [];
  const redactor = createConfigRedactor(config);
  const logger = createGatewayLogger(config, redactor, { write: (line: string) => void lines.push(line) });
  const app = await buildApp(config, { logger, redactor });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, baseUrl, lines, close: () => app.close() };
}
