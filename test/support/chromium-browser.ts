import { existsSync } from 'node:fs';
import chromiumPackage from '@sparticuz/chromium';

/**
 * The browser for the dashboard test, found without anything installed by hand: a system
 * Chromium when there is one, else the binary npm ships in @sparticuz/chromium (it decompresses
 * to /tmp on first use). QHORUS_CHROMIUM_PATH names one explicitly; QHORUS_CHROMIUM=npm forces
 * the npm binary even where a system one exists (how the npm path is checked on a dev machine).
 */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** The package's own default args crash here; these are what headless Chromium needs on a bare Linux box. */
export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function chromiumExecutablePath(): Promise<string> {
  if (process.env.QHORUS_CHROMIUM_PATH) return process.env.QHORUS_CHROMIUM_PATH;
  if (process.env.QHORUS_CHROMIUM !== 'npm' && existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  chromiumPackage.setGraphicsMode = false;
  return chromiumPackage.executablePath();
}
