import { createToolFormatRegistry } from '../tool-formats/index.js';
const f = createToolFormatRegistry().get('hy3')!;
const tools = [{ name: 'get_weather', description: '', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const S = ':6124c78e';
const section = `Some prose before the call, with a < b.\n<tool_calls${S}><tool_call${S}>get_weather<arg_key${S}>city</arg_key${S}><arg_value${S}>Paris</arg_value${S}></tool_call${S}></tool_calls${S}>\n`;
for (const n of [1_000_000, 10_000_000]) {
  const text = section.repeat(Math.ceil(n / section.length));
  let t = process.cpuUsage(); const p = f.createParser(tools as never, {}); const calls = [...p.push(text), ...p.finish()].filter((e) => e.type === 'tool-call').length; let u = process.cpuUsage(t); const whole = (u.user + u.system) / 1000;
  t = process.cpuUsage(); const q = f.createParser(tools as never, {}); for (let i = 0; i < text.length; i += 4) q.push(text.slice(i, i + 4)); q.finish(); u = process.cpuUsage(t);
  console.log(n, 'calls', calls, 'whole', whole, 'ms stream', (u.user + u.system) / 1000, 'ms');
}
