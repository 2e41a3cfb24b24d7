// Temporary (not committed): the parser bench rows for this branch's families only.
import { createToolFormatRegistry } from '../tool-formats/index.js';
import { buildReply } from './parsers.js';
const tools = [
  { name: 'get_weather', description: 'Get the weather.', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
  { name: 'write_file', description: 'Write a file.', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
];
const registry = createToolFormatRegistry();
const best = (runs: number, run: () => unknown) => { let b = Infinity; for (let i = 0; i < runs; i++) { const s = process.cpuUsage(); run(); const u = process.cpuUsage(s); b = Math.min(b, (u.user + u.system) / 1000); } return b; };
const chunks = (t: string) => { const c: string[] = []; for (let i = 0; i < t.length; i += 4) c.push(t.slice(i, i + 4)); return c; };
for (const family of process.argv.slice(2)) {
  const format = registry.get(family)!;
  const small = buildReply(format, 1_000_000), large = buildReply(format, 10_000_000);
  const sc = chunks(small), lc = chunks(large);
  const whole = (t: string) => { const p = format.createParser(tools as never, {}); return [...p.push(t), ...p.finish()].filter((e) => e.type === 'tool-call').length; };
  const stream = (c: string[]) => { const p = format.createParser(tools as never, {}); let n = 0; for (const x of c) for (const e of p.push(x)) if (e.type === 'tool-call') n++; for (const e of p.finish()) if (e.type === 'tool-call') n++; return n; };
  const calls = whole(small); if (stream(sc) !== calls) throw new Error(family + ' disagree');
  best(2, () => whole(small)); best(2, () => stream(sc));
  const ws = best(6, () => whole(small)), ss = best(6, () => stream(sc)), wl = best(2, () => whole(large)), sl = best(2, () => stream(lc));
  console.log(`${family}: calls ${calls}, whole ${(small.length / 1e6 / (ws / 1000)).toFixed(1)} MB/s, stream ${(small.length / 1e6 / (ss / 1000)).toFixed(1)} MB/s, 10/1 stream ${(sl / ss).toFixed(1)} whole ${(wl / ws).toFixed(1)}`);
}
