/**
 * The /inspector page as an outside tester uses it, in headless Chromium: a Qwen3-Coder reply with every
 * agent_format rendering, errors shown (bad tools JSON), keyboard order and visible focus, labels and
 * text contrast, a 1366×768 screen and 200% zoom without sideways scrolling, the status line in view on that
 * screen after a parse, nothing fetched from outside 127.0.0.1, and a gateway with client keys that asks
 * for one instead of failing silently.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, screenshotFolder as screenshots, warnIfNoChromium } from '../../helpers/headless-chromium.js';
import { startGateway, type StartedGateway } from '../../helpers/start-gateway.js';

warnIfNoChromium('inspector page audit tests');

const clientKey = 'sk-inspector-page-key-1';
const qwenCoderReply =
  'I will look.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=unit>\ncelsius\n</parameter>\n</function>\n</tool_call>';

let open: StartedGateway;
let keyed: StartedGateway;
let browser: Browser;
let page: Page;
/** Every URL any page asked for, to prove the page works offline. */
const requested: string[] = [];

async function newPage(viewport: { width: number; height: number }, deviceScaleFactor = 1): Promise<Page> {
  const created = await browser.newPage({ viewport, deviceScaleFactor });
  created.on('request', (request) => requested.push(request.url()));
  return created;
}

/** The page's text colours against their backgrounds (WCAG ratio), computed in the page (as text: no DOM types here). */
const lowContrastScript = `(() => {
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const parse = (color) => (color.match(/[\\d.]+/g) || []).map(Number);
  const background = (node) => {
    for (let at = node; at; at = at.parentElement) {
      const color = parse(getComputedStyle(at).backgroundColor);
      if (color.length === 3 || (color.length === 4 && color[3] > 0.9)) return color.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const problems = [];
  for (const node of document.querySelectorAll('body *')) {
    const own = [...node.childNodes].some((child) => child.nodeType === 3 && child.textContent.trim());
    if (!own || !node.getClientRects().length) continue;
    const [l1, l2] = [luminance(parse(getComputedStyle(node).color).slice(0, 3)), luminance(background(node))].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    if (ratio < 4.5) problems.push(node.tagName + '#' + node.id + '.' + node.className + ': ' + ratio.toFixed(2));
  }
  return problems;
})()`;

describe.skipIf(!chromiumPath)('the inspector page, audited', () => {
  beforeAll(async () => {
    await mkdir(screenshots, { recursive: true });
    open = await startGateway({ providers: { demo: { type: 'scripted' } } });
    keyed = await startGateway({ server: { apiKeys: [clientKey] }, providers: { demo: { type: 'scripted' } } });
    browser = await launchChromium();
    page = await newPage({ width: 1366, height: 768 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([open?.close(), keyed?.close()]);
  });

  it('shows a Qwen3-Coder reply: the call, the text, and the call in every agent_format the gateway has', async () => {
    await page.goto(`${open.baseUrl}/inspector`);
    await page.locator('#calls .call-name').first().waitFor();
    await page.locator('#model').fill('Qwen/Qwen3-Coder-30B-A3B-Instruct');
    await page.locator('#model-family', { hasText: 'qwen3-coder' }).waitFor();
    await page.locator('#reply').fill(qwenCoderReply);
    await page.locator('#parse').click();
    await page.locator('#output-family', { hasText: 'qwen3-coder' }).waitFor();
    await page.locator('#status', { hasText: '1 tool call parsed' }).waitFor();
    expect(await page.locator('#calls .call-name').allTextContents()).toEqual(['get_weather']);
    expect(await page.locator('#content').textContent()).toBe('I will look.\n');
    const families = (await (await fetch(`${open.baseUrl}/v1/tool-calls/families`)).json()) as { agent_formats: string[] };
    const rows = await page.locator('#formats th').allTextContents();
    expect(rows).toEqual(['qwen3-coder (family)', ...families.agent_formats]);
    await page.screenshot({ path: join(screenshots, 'inspector-qwen3-coder.png') });
    await page.locator('#formats').screenshot({ path: join(screenshots, 'inspector-agent-formats.png') });
  });

  it('shows errors instead of swallowing them: tools that are not JSON, and a name no family claims', async () => {
    await page.locator('#tools').fill('[{"type": "function", "function": {"name": "get_weather"}');
    await page.locator('#parse').click();
    const status = page.locator('#status.error');
    await status.waitFor();
    expect(await status.textContent()).toContain('The tools are not a JSON array');
    // The previous answer is not left on show as if it were this one's.
    expect(await page.locator('#calls').textContent()).toContain('Not parsed');
    expect(await page.locator('#content').textContent()).toBe('');
    await page.screenshot({ path: join(screenshots, 'inspector-error.png'), fullPage: true });
    await page.locator('#model').fill('my-own-finetune');
    await page.locator('#model-family', { hasText: 'generic-json' }).waitFor();
    expect(await page.locator('#model-family').textContent()).toContain('no family claims this name');
  });

  it('goes through its controls in reading order by Tab, with a visible focus ring', async () => {
    await page.goto(`${open.baseUrl}/inspector`);
    await page.locator('#calls .call-name').first().waitFor();
    await page.locator('#family').focus();
    const order = ['family'];
    for (let step = 0; step < 6; step++) {
      await page.keyboard.press('Tab');
      order.push(String(await page.evaluate('document.activeElement.id')));
    }
    expect(order).toEqual(['family', 'model', 'reply', 'tools', 'chunking', 'api-key', 'parse']);
    const outline = String(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle'));
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: 'parsed' }).waitFor();
  });

  it('names every control and button, has one h1, and keeps text at WCAG AA contrast', async () => {
    const unnamedButtons = await page.evaluate("[...document.querySelectorAll('button')].filter((b) => !b.textContent.trim()).length");
    expect(unnamedButtons).toBe(0);
    const unlabelled = await page.evaluate(
      "[...document.querySelectorAll('input, select, textarea')].filter((control) => control.labels.length === 0).map((control) => control.id)",
    );
    expect(unlabelled).toEqual([]);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.evaluate(lowContrastScript)).toEqual([]);
  });

  it('fits a 1366×768 screen and 200% zoom without scrolling sideways', async () => {
    const overflow = 'document.documentElement.scrollWidth - document.documentElement.clientWidth';
    expect(await page.evaluate(overflow)).toBeLessThanOrEqual(0);
    // 200% zoom on that screen: half the CSS pixels, each drawn twice as large.
    const zoomed = await newPage({ width: 683, height: 384 }, 2);
    await zoomed.goto(`${open.baseUrl}/inspector`);
    await zoomed.locator('#calls .call-name').first().waitFor();
    expect(await zoomed.evaluate(overflow)).toBeLessThanOrEqual(0);
    await zoomed.screenshot({ path: join(screenshots, 'inspector-zoom-200.png') });
    await zoomed.close();
  });

  /** Where the status line is on `screen`, and how far the page is scrolled. */
  const statusPlacement = async (screen: Page) =>
    (await screen.evaluate(
      "(() => { const box = document.getElementById('status').getBoundingClientRect(); return { scrolled: window.scrollY, top: box.top, bottom: box.bottom, left: box.left, right: box.right, height: innerHeight, width: innerWidth }; })()",
    )) as { scrolled: number; top: number; bottom: number; left: number; right: number; height: number; width: number };

  const expectStatusInView = async (screen: Page, scrolled?: number) => {
    const status = await statusPlacement(screen);
    if (scrolled !== undefined) expect(status.scrolled).toBe(scrolled);
    expect(status.top).toBeGreaterThanOrEqual(0);
    expect(status.bottom).toBeLessThanOrEqual(status.height);
    expect([status.left >= 0, status.right <= status.width]).toEqual([true, true]);
  };

  it('shows the status line after a parse at 1366×768 with no scroll, a long error as well', async () => {
    const screen = await newPage({ width: 1366, height: 768 });
    await screen.goto(`${open.baseUrl}/inspector`);
    await screen.locator('#calls .call-name').first().waitFor();
    // Keys, not clicks: a click would scroll its target into view on the test's behalf.
    await screen.evaluate("document.getElementById('reply').focus()");
    await screen.keyboard.press('Control+Enter');
    await screen.locator('#status', { hasText: '1 tool call parsed' }).waitFor();
    await expectStatusInView(screen, 0);
    // An error over several lines: the status line grows, and must still be on screen.
    await screen.evaluate(
      'document.getElementById(\'tools\').value = \'[{"type": "function", "function": {"name": "\' + \'x\'.repeat(400)',
    );
    await screen.keyboard.press('Control+Enter');
    await screen.locator('#status.error').waitFor();
    const error = await statusPlacement(screen);
    expect(error.bottom - error.top).toBeGreaterThan(40);
    await expectStatusInView(screen, 0);
    await screen.close();
  });

  it('in a window shorter than the form (a 1366×768 screen less the browser bars) keeps Parse and its status in view, and no focused field under them', async () => {
    const screen = await newPage({ width: 1366, height: 620 });
    await screen.goto(`${open.baseUrl}/inspector`);
    await screen.locator('#calls .call-name').first().waitFor();
    await screen.locator('#family').focus();
    // What is drawn at the middle of the focused control: the control itself, not the bar over it.
    const focusedOnTop =
      "(() => { const active = document.activeElement; const box = active.getBoundingClientRect(); const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2); return active.id + (active.contains(hit) ? '' : ' is under ' + (hit && hit.tagName)); })()";
    const focused = [String(await screen.evaluate(focusedOnTop))];
    for (let step = 0; step < 6; step++) {
      await screen.keyboard.press('Tab');
      focused.push(String(await screen.evaluate(focusedOnTop)));
    }
    expect(focused).toEqual(['family', 'model', 'reply', 'tools', 'chunking', 'api-key', 'parse']);
    await screen.keyboard.press('Enter');
    await screen.locator('#status', { hasText: '1 tool call parsed' }).waitFor();
    await expectStatusInView(screen);
    await screen.close();
  });

  it('asks for a key on a gateway with client keys, then works with it', async () => {
    const keyedPage = await newPage({ width: 1366, height: 768 });
    await keyedPage.goto(`${keyed.baseUrl}/inspector`);
    const status = keyedPage.locator('#status.error');
    await status.waitFor();
    expect(await status.textContent()).toContain('This gateway needs a client key');
    expect(await keyedPage.locator('#recent-state').textContent()).toContain('needs a client key');
    expect(await keyedPage.locator('#key-hint').textContent()).toContain('Needed');
    await keyedPage.screenshot({ path: join(screenshots, 'inspector-key-needed.png'), fullPage: true });
    await keyedPage.locator('#api-key').fill(clientKey);
    await keyedPage.locator('#api-key').press('Enter');
    await keyedPage.locator('#status', { hasText: '1 tool call parsed' }).waitFor();
    expect(await keyedPage.locator('#family option').count()).toBeGreaterThan(40);
    await keyedPage.close();
  });

  it('asked nothing of any host but the gateway on 127.0.0.1 (it works offline)', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => new URL(url).hostname !== '127.0.0.1')).toEqual([]);
  });
});
