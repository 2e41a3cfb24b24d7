/**
 * The /inspector page in headless Chromium (Debian's `chromium`, driven by playwright-core): it parses the
 * example reply on load, follows a family and a model name, works from the keyboard, shows recent replies,
 * and labels every control. Screenshots go to INSPECTOR_SCREENSHOTS (default: a temporary folder).
 * `.ci/run` installs chromium when it is missing; without it this file says why and skips.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, screenshotFolder as screenshots, warnIfNoChromium } from '../../helpers/headless-chromium.js';
import { startGateway, type StartedGateway } from '../../helpers/start-gateway.js';

warnIfNoChromium('inspector page tests');

let gateway: StartedGateway;
let browser: Browser;
let page: Page;

describe.skipIf(!chromiumPath)('the inspector page', () => {
  beforeAll(async () => {
    await mkdir(screenshots, { recursive: true });
    gateway = await startGateway({ providers: { demo: { type: 'scripted' } }, debug: { recentReplies: 5 } });
    browser = await launchChromium();
    // A 1366×768 laptop screen.
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('parses the example reply on load: the call, the text, and the call in every agent_format', async () => {
    await page.goto(`${gateway.baseUrl}/inspector`);
    await page.locator('#calls .call-name').first().waitFor();
    expect(await page.locator('#calls .call-name').first().textContent()).toBe('get_weather');
    expect(await page.locator('#content').textContent()).toBe('Let me check.\n');
    expect(await page.locator('#output-family').textContent()).toBe('hermes');
    expect(await page.locator('#model-family').textContent()).toContain('Maps to hermes');
    const formats = await page.locator('#formats th').allTextContents();
    expect(formats).toEqual(expect.arrayContaining(['hermes (family)', 'qwen3', 'xml', 'mistral']));
    await page.screenshot({ path: join(screenshots, 'inspector-hermes.png'), fullPage: true });
  });

  it('shows a rejected call and the reasoning, from the keyboard alone', async () => {
    await page.locator('#model').fill('gpt-oss-20b');
    await page.locator('#model-family', { hasText: 'harmony' }).waitFor();
    const reply =
      '<|channel|>analysis<|message|>They want rockets.<|end|><|start|>assistant<|channel|>commentary to=functions.launch_rockets <|constrain|>json<|message|>{}<|call|>';
    await page.locator('#reply').fill(reply);
    await page.locator('#reply').focus();
    await page.keyboard.press('Control+Enter');
    await page.locator('#calls .diagnosed').waitFor();
    expect(await page.locator('#calls .diagnosed .call-name').textContent()).toBe('unavailable_tool');
    expect(await page.locator('#reasoning').textContent()).toBe('They want rockets.');
    expect(await page.locator('#output-family').textContent()).toBe('harmony');
    await page.screenshot({ path: join(screenshots, 'inspector-harmony-rejected.png'), fullPage: true });
  });

  it('takes a family from the list over the model name, streamed one character at a time', async () => {
    await page.locator('#family').selectOption('mistral');
    await page.locator('#chunking').selectOption('1');
    await page.locator('#reply').fill('[TOOL_CALLS]get_weather[ARGS]{"city": "Lyon"}');
    await page.locator('#parse').click();
    await page.locator('#status', { hasText: 'chunks' }).waitFor();
    expect(await page.locator('#output-family').textContent()).toBe('mistral');
    expect(await page.locator('#calls pre').first().textContent()).toContain('"city": "Lyon"');
    expect(await page.locator('#status').textContent()).toMatch(/1 tool call parsed in 4\d chunks/);
  });

  it('lists recent replies and opens one', async () => {
    await gateway.client().chat.completions.create({
      model: 'demo/qwen3-coder-30b-a3b-instruct',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        },
      ],
    });
    await page.locator('#refresh-recent').click();
    const entry = page.locator('#recent button').first();
    await entry.waitFor();
    expect(await entry.textContent()).toContain('demo/qwen3-coder-30b-a3b-instruct');
    await entry.click();
    await page.locator('#output-family', { hasText: 'qwen3-coder' }).waitFor();
    expect(await page.locator('#reply').inputValue()).toContain('<function=get_weather>');
    expect(await page.locator('#status').textContent()).toContain('Recorded reply');
    expect(await page.locator('#calls .call-name').first().textContent()).toBe('get_weather');
    await page.screenshot({ path: join(screenshots, 'inspector-recent.png'), fullPage: true });
  });

  it('labels every control and reaches the parse button by Tab', async () => {
    // Run in the page (as text: the tests are compiled without the DOM's types).
    const unlabelled = await page.evaluate(
      "[...document.querySelectorAll('input, select, textarea')].filter((control) => control.labels.length === 0).map((control) => control.id)",
    );
    expect(unlabelled).toEqual([]);
    await page.locator('#api-key').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('parse');
  });
});
