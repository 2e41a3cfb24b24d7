import { createToolFormatRegistry } from '../tool-formats/index.js';
import { buildReply } from './parsers.js';
const tools = [{ name: 'get_weather', description: '', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
for (const family of process.argv.slice(2)) {
  const f = createToolFormatRegistry().get(family)!;
  for (const n of [100_000, 200_000, 400_000]) {
    const text = buildReply(f, n);
    let t = Date.now(); const p = f.createParser(tools as never, {}); p.push(text); p.finish(); const whole = Date.now() - t;
    t = Date.now(); const q = f.createParser(tools as never, {}); for (let i = 0; i < text.length; i += 4) q.push(text.slice(i, i + 4)); q.finish();
    console.log(family, n, 'whole', whole, 'ms stream', Date.now() - t, 'ms');
  }
}
