/** Runs one parser-bench row in a fresh Node process and reads its row back (see bench/parsers.ts). */
import { spawn } from 'node:child_process';

const measureFlag = '--measure-one';

/** The row key a child was asked to measure, or undefined in the parent. */
export function childRowRequest(argv: readonly string[]): string | undefined {
  const index = argv.indexOf(measureFlag);
  return index === -1 ? undefined : argv[index + 1];
}

/** Writes the child's row as the last line of stdout, where measureInChildProcess looks for it. */
export function writeChildRow(row: unknown): void {
  process.stdout.write(`${JSON.stringify(row)}\n`);
}

/**
 * `node <this process's flags> modulePath --measure-one key`, resolving to the row the child printed. The
 * child inherits the loader flags (`--import tsx`) so it runs the same TypeScript as the parent.
 */
export function measureInChildProcess<Row>(modulePath: string, key: string): Promise<Row> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, modulePath, measureFlag, key], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => (output += text));
    child.on('error', reject);
    child.on('close', (code) => {
      const lastLine = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || lastLine === '') {
        reject(new Error(`parser bench child for ${key} exited with ${code} and printed no row`));
        return;
      }
      resolve(JSON.parse(lastLine) as Row);
    });
  });
}
