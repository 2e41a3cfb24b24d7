// The inspector page's behaviour: asks the gateway's own parse and render routes, shows the answers side by side.
const $ = (id) => document.getElementById(id);

const exampleTools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Get the weather for a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
        required: ['city'],
      },
    },
  },
];
const exampleReply = 'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>';

// Said instead of a bare 401, so that a gateway with client keys does not look broken.
const keyNeeded =
  'This gateway needs a client key (server.apiKeys): type one into "Gateway API key" and press Enter; it is sent with each call and kept for this tab only.';

function headers() {
  const result = { 'content-type': 'application/json' };
  const key = $('api-key').value.trim();
  if (key) result.authorization = `Bearer ${key}`;
  return result;
}

async function call(method, path, body) {
  const response = await fetch(path, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => ({ error: { message: `HTTP ${response.status}` } }));
  if (response.status === 401) {
    // Next to the key field too, where the fix is, not only in the status line below the form.
    $('key-hint').textContent = 'Needed: this gateway has client keys.';
    $('key-hint').className = 'hint error';
    throw new Error(`${keyNeeded} (The gateway said: ${answer.error?.message ?? 'HTTP 401'})`);
  }
  if (!response.ok) throw new Error(answer.error?.message ?? `HTTP ${response.status}`);
  return answer;
}

/** The target as the API takes it: a family chosen from the list wins over the model name. */
function target() {
  const family = $('family').value;
  return family ? { family } : { model: $('model').value.trim() || 'unknown-model' };
}

/** Random chunk sizes from a fixed seed, so the same text splits the same way on every click. */
function chunking() {
  const choice = $('chunking').value;
  if (choice === 'whole') return undefined;
  if (choice !== 'random') return Number(choice);
  let seed = 7;
  return Array.from({ length: 64 }, () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return 1 + (seed % 7);
  });
}

function readTools() {
  const text = $('tools').value.trim();
  if (!text) return [];
  try {
    const tools = JSON.parse(text);
    if (!Array.isArray(tools)) throw new Error('not an array');
    return tools;
  } catch (error) {
    throw new Error(`The tools are not a JSON array of OpenAI tools (${error.message}).`);
  }
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function prettyArguments(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function showCalls(calls, diagnostics) {
  const box = $('calls');
  box.replaceChildren();
  for (const call of calls) {
    const card = element('div', 'call');
    card.append(element('div', 'call-name', call.function.name), element('pre', '', prettyArguments(call.function.arguments)));
    box.append(card);
  }
  const problem = diagnostics?.tool_call_error ?? diagnostics?.unparsed_tool_call;
  if (problem) {
    const card = element('div', 'call diagnosed');
    card.append(
      element('div', 'call-name', problem.code ?? `unparsed (${problem.reason})`),
      element('pre', '', problem.message ?? problem.text),
    );
    box.append(card);
  }
  if (!box.children.length) box.append(element('p', 'empty', 'No tool calls.'));
}

/** The result panes, from a parse answer or a recorded reply (the same wire shape). */
async function showResult(result, tools) {
  $('output-family').textContent = result.family;
  showCalls(result.calls, result.diagnostics);
  $('content').textContent = result.content ?? '';
  $('reasoning').textContent = result.reasoning ?? '';
  $('diagnostics').textContent = result.diagnostics ? JSON.stringify(result.diagnostics, null, 2) : '';
  const calls = result.calls.map((item) => ({ name: item.function.name, arguments: item.function.arguments }));
  const rendered = await call('POST', '/v1/tool-calls/render', { family: result.family, tools, calls });
  showFormats(rendered);
  $('prompt').textContent = rendered.system ?? '(no tools: nothing is added to the prompt)';
}

function showFormats(rendered) {
  const box = $('formats');
  box.replaceChildren();
  if (!rendered.calls.length) {
    box.append(element('p', 'empty', 'No calls to render.'));
    return;
  }
  for (const call of rendered.calls) {
    const table = element('table', 'format-table');
    table.append(element('caption', 'call-name', call.name));
    const rows = [[`${rendered.family} (family)`, call.family], ...Object.entries(call.agent_formats)];
    for (const [name, text] of rows) {
      const row = element('tr');
      const cell = element('td');
      cell.append(element('pre', '', text));
      row.append(element('th', '', name), cell);
      table.append(row);
    }
    box.append(table);
  }
}

function showError(error) {
  $('status').className = 'status error';
  $('status').textContent = error.message;
  // The panes would otherwise still show the previous answer as if it were this one's.
  $('output-family').textContent = '';
  $('calls').replaceChildren(element('p', 'empty', 'Not parsed: see the error under the form.'));
  for (const id of ['content', 'reasoning', 'diagnostics', 'prompt']) $(id).textContent = '';
  $('formats').replaceChildren(element('p', 'empty', 'No calls to render.'));
}

async function inspect(text) {
  const status = $('status');
  status.className = 'status';
  status.textContent = 'Parsing…';
  try {
    const tools = readTools();
    const parsed = await call('POST', '/v1/tool-calls/parse', { ...target(), text, tools, chunking: chunking() });
    await showResult(parsed, tools);
    const count = parsed.calls.length;
    status.textContent = `${count} tool call${count === 1 ? '' : 's'} parsed in ${parsed.chunks} chunk${parsed.chunks === 1 ? '' : 's'}${tools.length ? '' : ' (no tools offered: nothing is parsed)'}.`;
  } catch (error) {
    showError(error);
  }
}

let familyLookup;
async function showModelFamily() {
  const model = $('model').value.trim();
  clearTimeout(familyLookup);
  familyLookup = setTimeout(async () => {
    if (!model) return void ($('model-family').textContent = '');
    try {
      const answer = await call('GET', `/v1/tool-calls/families?model=${encodeURIComponent(model)}`);
      const { family, family_source: source } = answer.resolved;
      const why = source === 'config' ? 'from the gateway config' : 'from the model name';
      // generic-json is also what a name no family claims falls back to: say so rather than look like a match.
      const fallback =
        family === 'generic-json' && source === 'model-name' ? '; no family claims this name, so it is read as generic JSON' : '';
      // A configured model also says what answers its provider and which lane its requests take now.
      const { server, tool_calling: lane } = answer.resolved;
      const served = lane ? ` Requests take the ${lane} lane${server ? ` on ${server}` : ''}.` : '';
      $('model-family').textContent = `Maps to ${family} (${why}${fallback}).${served}`;
    } catch (error) {
      $('model-family').textContent = error.message;
    }
  }, 150);
}

async function loadFamilies() {
  const answer = await call('GET', '/v1/tool-calls/families');
  const select = $('family');
  const chosen = select.value;
  // Loaded again when a key is given: the list is rebuilt, not appended to.
  select.replaceChildren(select.options[0]);
  for (const family of answer.families) select.append(new Option(family, family));
  select.value = chosen;
}

async function loadRecent() {
  const list = $('recent');
  list.replaceChildren();
  try {
    const answer = await call('GET', '/v1/tool-calls/recent');
    $('recent-state').textContent = answer.enabled
      ? `The last ${answer.capacity} prompted-lane replies, newest first. Choose one to inspect it.`
      : 'Off. Set debug.recentReplies: N in the gateway config to keep the last N prompted-lane replies here (in memory only).';
    if (answer.enabled && answer.data.length === 0) list.append(element('li', 'empty', 'No prompted-lane replies yet.'));
    for (const reply of answer.data) {
      const button = element('button');
      button.type = 'button';
      button.append(
        element('span', 'when', reply.time),
        element('span', '', reply.model),
        element('span', 'badge', reply.family),
        element('span', '', `${reply.calls.length} call(s)`),
      );
      // What the client got, as recorded (the request's own tools decided it); Parse re-reads it with the form's tools.
      button.addEventListener('click', () => {
        $('family').value = reply.family;
        $('model').value = reply.model;
        $('reply').value = reply.raw;
        void showModelFamily();
        showResult(reply, [])
          .then(() => ($('status').textContent = `Recorded reply ${reply.id} from ${reply.time}: what the client got.`))
          .catch(showError);
      });
      const item = element('li');
      item.append(button);
      list.append(item);
    }
  } catch (error) {
    $('recent-state').textContent = error.message;
  }
}

function start() {
  $('reply').value = exampleReply;
  $('tools').value = JSON.stringify(exampleTools, null, 2);
  $('api-key').value = sessionStorage.getItem('interlingua-key') ?? '';
  $('api-key').addEventListener('change', () => {
    sessionStorage.setItem('interlingua-key', $('api-key').value);
    $('key-hint').textContent = '';
    $('key-hint').className = 'hint';
    void loadFamilies()
      .then(showModelFamily)
      .then(() => inspect($('reply').value))
      .catch(showError);
    void loadRecent();
  });
  $('inspect-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void inspect($('reply').value);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void inspect($('reply').value);
    }
  });
  $('model').addEventListener('input', showModelFamily);
  $('refresh-recent').addEventListener('click', () => void loadRecent());
  void loadFamilies()
    .then(showModelFamily)
    .then(() => inspect($('reply').value))
    .catch(showError);
  void loadRecent();
}

start();
