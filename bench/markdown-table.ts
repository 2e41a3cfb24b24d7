/** Renders rows as a GitHub-flavoured markdown table, numeric-looking columns right-aligned. */

export function renderMarkdownTable(headers: string[], rows: string[][]): string {
  const numeric = headers.map((_, column) => rows.length > 0 && rows.every((row) => /^[-+×≈<>≤≥\d.,\s%–]*$/.test(row[column] ?? '')));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (numeric[column] ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

/** Fixed decimals, thousands separated; `–` for a missing figure. */
export function formatNumber(value: number | undefined, decimals = 0): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export function formatRatio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '–' : `${value.toFixed(2)} ×`;
}
