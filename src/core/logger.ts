/** The logging surface the core needs; pino loggers satisfy it structurally. */
export type LogFunction = {
  (message: string): void;
  (object: Record<string, unknown>, message?: string): void;
};

export type Logger = {
  debug: LogFunction;
  info: LogFunction;
  warn: LogFunction;
  error: LogFunction;
  child(bindings: Record<string, unknown>): Logger;
};

const ignore: LogFunction = () => undefined;

export const silentLogger: Logger = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  child: () => silentLogger,
};
