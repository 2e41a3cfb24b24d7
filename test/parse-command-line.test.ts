/** `--config/--port/--host` and their environment fallbacks GATEWAY_CONFIG/PORT/HOST. */
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/parse-command-line.js';

describe('parseCommandLine', () => {
  it('reads the flags', () => {
    expect(parseCommandLine(['--config', 'gateway.yaml', '--port', '9200', '--host', '0.0.0.0'], {})).toEqual({
      configPath: 'gateway.yaml',
      port: 9200,
      host: '0.0.0.0',
    });
    expect(parseCommandLine(['--config=g.json', '--port=0'], {})).toEqual({ configPath: 'g.json', port: 0 });
    expect(parseCommandLine(['-c', 'g.yaml', '-p', '1'], {})).toEqual({ configPath: 'g.yaml', port: 1 });
  });

  it('falls back to GATEWAY_CONFIG, PORT and HOST', () => {
    expect(parseCommandLine([], { GATEWAY_CONFIG: 'env.yaml', PORT: '8081', HOST: '127.0.0.2' })).toEqual({
      configPath: 'env.yaml',
      port: 8081,
      host: '127.0.0.2',
    });
  });

  it('prefers the flags over the environment', () => {
    expect(
      parseCommandLine(['--config', 'flag.yaml', '--port', '1', '--host', 'flag-host'], {
        GATEWAY_CONFIG: 'env.yaml',
        PORT: '2',
        HOST: 'env-host',
      }),
    ).toEqual({
      configPath: 'flag.yaml',
      port: 1,
      host: 'flag-host',
    });
  });

  it('leaves out what is not given (empty environment values count as not given)', () => {
    expect(parseCommandLine([], {})).toEqual({});
    expect(parseCommandLine([], { GATEWAY_CONFIG: '', PORT: '', HOST: '' })).toEqual({});
  });

  it.each(['http', '-1', '65536', '80.5'])('rejects the port %j, naming it', (port) => {
    expect(() => parseCommandLine([`--port=${port}`], {})).toThrow(`invalid port '${port}'`);
    expect(() => parseCommandLine([], { PORT: port })).toThrow(`invalid port '${port}'`);
  });

  it('rejects unknown flags and positionals', () => {
    expect(() => parseCommandLine(['--verbose'], {})).toThrow();
    expect(() => parseCommandLine(['gateway.yaml'], {})).toThrow();
  });
});
