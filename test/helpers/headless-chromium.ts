/**
 * Debian's Chromium, headless, for the inspector page tests (driven by playwright-core, which downloads no
 * browser). `.ci/run` installs it when missing; without it the tests say why and skip.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath: string | undefined = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

/** Where screenshots go: INSPECTOR_SCREENSHOTS (docs/inspector to refresh the README's), else a temporary folder. */
export const screenshotFolder: string = process.env.INSPECTOR_SCREENSHOTS ?? join(tmpdir(), 'interlingua-inspector');

// The flags this machine needs: no sandbox as root, and no background connections to hosts it cannot reach.
const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function warnIfNoChromium(what: string): void {
  if (!chromiumPath) console.warn(`SKIPPED ${what}: no Chromium at /usr/bin/chromium (apt-get install chromium; .ci/run does this)`);
}

export function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error('no Chromium installed');
  return chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
}
