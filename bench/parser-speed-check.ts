/** The parser speed goals, checked on the benchmark's rows: linear in the reply's length, and fast when streamed. */

/** What a check needs of a benchmark row. */
export type MeasuredParser = {
  family: string;
  streamMegabytesPerSecond: number;
  streamTenToOneRatio: number;
  wholeTenToOneRatio: number;
};

/**
 * 10 MB must take at most this many times as long as 1 MB: 10 is linear, n log n about 12, quadratic
 * about 100. The slack is for collecting the 10 MB strings (whole parses measured 12.7 to 14.6 on a quiet
 * machine, up to 18 on a busy one).
 */
export const linearRatioBound = 20;
/** Streaming in 4-byte chunks must parse at least this many MB per second. */
export const streamMegabytesPerSecondGoal = 15;

export type ParserCheck = { family: string; pass: boolean; line: string };

export function checkParser(row: MeasuredParser): ParserCheck {
  const worstRatio = Math.max(row.streamTenToOneRatio, row.wholeTenToOneRatio);
  const linear = worstRatio <= linearRatioBound;
  const fast = row.streamMegabytesPerSecond >= streamMegabytesPerSecondGoal;
  const pass = linear && fast;
  const line =
    `${pass ? 'PASS' : 'FAIL'} ${row.family}: ` +
    `${linear ? 'linear' : 'NOT linear'} (10 MB / 1 MB = ${row.streamTenToOneRatio} streamed, ${row.wholeTenToOneRatio} whole; bound ${linearRatioBound}), ` +
    `${row.streamMegabytesPerSecond} MB/s streamed in 4-byte chunks (goal ${streamMegabytesPerSecondGoal})`;
  return { family: row.family, pass, line };
}

/** One line per parser and a summary line. */
export function parserCheckReport(rows: readonly MeasuredParser[]): { pass: boolean; lines: string[] } {
  const checks = rows.map(checkParser);
  const failed = checks.filter((check) => !check.pass);
  const summary =
    failed.length === 0
      ? `parsers: PASS, all ${checks.length} linear and at least ${streamMegabytesPerSecondGoal} MB/s streaming`
      : `parsers: FAIL, ${failed.length} of ${checks.length} (${failed.map((check) => check.family).join(', ')})`;
  return { pass: failed.length === 0, lines: [...checks.map((check) => check.line), summary] };
}
