/**
 * Starts one Chromium for the browser pool with puppeteer-core and Debian's chromium-headless-shell
 * (or the full chromium; `ResolvedConfig.chromiumPath`, stack.md "puppeteer"): the flags that keep it quiet and offline, its own user-data directory under
 * `<dataDir>/browser/pool/<pid>-<n>` and HOME/TMPDIR/XDG_* under `<dataDir>/browser/env` so it leaves
 * nothing in /tmp or the real home. Chromium runs in its own process group (puppeteer's default on
 * Linux) so the pool can kill it with every child process.
 *
 * Network lockdown (issue 15 item 4): every context reaches the network only through its guarding
 * proxy (pool.ts), so Chromium itself resolves no name (`MAP * ~NOTFOUND`; the gates listen on
 * 127.0.0.1, an address, excluded), WebRTC sends no UDP that bypasses the proxy and gathers no local
 * candidates, and the pop-up blocker stays on (puppeteer turns it off by default).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { childProcessEnv } from '../../../core/config.ts';

/** Flags from stack.md plus the ones that keep many background pages running at full speed. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--disable-extensions',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  // SpareRendererForSitePerProcess: Chromium keeps a renderer process started ahead for the next tab
  // of the context it last served; with a fresh context per scrape that spare never fits the next
  // context and is thrown away, so every scrape started two renderers (measured: 16 renderers for 8
  // scrapes with it, 8 without; ~40-100 ms less Chromium CPU per scrape). The pool's own spare page
  // already starts the next scrape's renderer ahead of time.
  '--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,InterestFeedContentSuggestions,SpareRendererForSitePerProcess',
  '--password-store=basic',
  '--use-mock-keychain',
  '--hide-scrollbars',
  '--mute-audio',
];

/**
 * Flags that close the browser's own ways to the network (see the header). The WebRTC policy has two
 * spellings: the full browser reads `--webrtc-ip-handling-policy` (a chrome switch), the headless shell
 * (Debian's chromium-headless-shell, the default) only `--force-webrtc-ip-handling-policy` (a content
 * switch). Both are passed so either binary is locked down (each ignores the other's); without its own
 * switch the shell sends STUN/TURN UDP to any address (test/browser/ssrf-channels.test.ts "WebRTC").
 */
export const LOCKDOWN_ARGS = [
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** Puppeteer defaults Trawl does not want: the pop-up blocker stays on. */
const IGNORED_DEFAULT_ARGS = ['--disable-popup-blocking'];

export interface LaunchOptions {
  /** Chromium executable (`ResolvedConfig.chromiumPath`). */
  chromiumPath: string;
  /** Trawl's data directory; the browser's files go under `<dataDir>/browser`. */
  dataDir: string;
  /** Slot number, part of the user-data directory name. */
  slot: number;
  /** Flags added after the defaults (e.g. `--host-resolver-rules=...`). */
  extraArgs?: string[];
  /** Launch timeout, ms. */
  timeoutMs?: number;
}

export interface LaunchedBrowser {
  browser: Browser;
  /** Process id of the Chromium main process (also its process group id). */
  pid: number | undefined;
  userDataDir: string;
}

/** Directory holding pool user-data directories. */
export const poolDir = (dataDir: string) => join(dataDir, 'browser', 'pool');

/**
 * Launches Chromium.
 * @throws Error when Chromium cannot start (bad path, missing libraries, timeout).
 */
export async function launchBrowser(opts: LaunchOptions): Promise<LaunchedBrowser> {
  const { default: puppeteer } = await import('puppeteer-core');
  const base = join(opts.dataDir, 'browser');
  const envDir = join(base, 'env');
  const dirs = {
    HOME: join(envDir, 'home'),
    TMPDIR: join(envDir, 'tmp'),
    XDG_CONFIG_HOME: join(envDir, 'config'),
    XDG_CACHE_HOME: join(envDir, 'cache'),
    XDG_DATA_HOME: join(envDir, 'data'),
    XDG_STATE_HOME: join(envDir, 'state'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const userDataDir = join(poolDir(opts.dataDir), `${process.pid}-${opts.slot}`);
  rmSync(userDataDir, { recursive: true, force: true });
  mkdirSync(userDataDir, { recursive: true });
  // Only what Chromium needs from Trawl's environment: never its secrets (database URL, API keys).
  const parent = childProcessEnv();
  const env: Record<string, string> = { ...dirs };
  for (const [k, v] of Object.entries(parent)) if (/^(?:PATH|LANG|LANGUAGE|LC_[A-Z]+|TZ|FONTCONFIG_[A-Z_]+)$/.test(k)) env[k] = v;
  try {
    const browser = await puppeteer.launch({
      executablePath: opts.chromiumPath,
      headless: true,
      userDataDir,
      args: [...CHROMIUM_ARGS, ...LOCKDOWN_ARGS, ...(opts.extraArgs ?? [])],
      ignoreDefaultArgs: IGNORED_DEFAULT_ARGS,
      env,
      defaultViewport: null,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: opts.timeoutMs ?? 30_000,
      protocolTimeout: 60_000,
      waitForInitialPage: false,
    });
    return { browser, pid: browser.process()?.pid, userDataDir };
  } catch (e) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Removes user-data directories left by pool processes that no longer run (a Trawl process that was
 * killed cannot clean up after itself). Directories of live processes are kept.
 */
export function removeStaleProfiles(dataDir: string): void {
  let names: string[];
  try {
    names = readdirSync(poolDir(dataDir));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number.parseInt(name.split('-')[0] ?? '', 10);
    if (pid === process.pid || (Number.isFinite(pid) && alive(pid))) continue;
    rmSync(join(poolDir(dataDir), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
