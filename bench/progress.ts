/** Progress lines on stderr (stdout carries only the report), stamped with the time since start. */

export type Progress = (message: string) => void;

export function createProgress(enabled = true): Progress {
  const started = performance.now();
  return (message) => {
    if (enabled) process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
  };
}
