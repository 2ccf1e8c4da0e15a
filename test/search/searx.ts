/**
 * Runs Debian's real `searx` package (1.1, `apt-get install searx`) for tests: writes a settings.yml
 * with offline `sqlite` engines (general, news, images) over an SQLite FTS5 index the test fills from
 * a local site, starts `searx-run` on a free port and waits until it answers JSON. Test-only.
 */
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';

export interface SearxPage {
  url: string;
  html: string;
  /** Index it as news (with a date) too. */
  newsDate?: string;
  image?: { src: string; width: number; height: number };
}

export interface Searx {
  url: string;
  stop(): Promise<void>;
}

/** Why searx cannot run here, or undefined when it can. */
export function searxUnavailable(): string | undefined {
  if (!Bun.which('searx-run')) return 'searx-run is not installed (apt-get install -y searx)';
  return undefined;
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
  const port = s.port!;
  s.stop(true);
  return port;
}

function textOf(html: string): { title: string; content: string } {
  const dom = parseDocument(html.replace(/</g, ' <')); // keep words of adjacent elements apart
  const title = DomUtils.textContent(DomUtils.findOne((e) => e.name === 'title', dom.children) ?? []).trim();
  const body = DomUtils.findOne((e) => e.name === 'body', dom.children);
  return { title, content: DomUtils.textContent(body ?? dom).replace(/\s+/g, ' ').trim() };
}

const ENGINE = (name: string, shortcut: string, category: string, db: string, sql: string) => `  - name: ${name}
    engine: sqlite
    shortcut: ${shortcut}
    categories: ${category}
    database: ${db}
    query_str: "${sql}"
    disabled: false
`;

/**
 * Indexes `pages` and starts searx over them.
 * @throws when searx does not answer within 40 s (its log is in the message)
 */
export async function startSearx(pages: SearxPage[]): Promise<Searx> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-searx-'));
  const dbPath = join(dir, 'index.db');
  const db = new Database(dbPath);
  db.run('CREATE VIRTUAL TABLE pages USING fts5(url UNINDEXED, title, content)');
  db.run('CREATE VIRTUAL TABLE news USING fts5(url UNINDEXED, title, content, pubdate UNINDEXED)');
  db.run('CREATE VIRTUAL TABLE images USING fts5(url UNINDEXED, title, content, img_src UNINDEXED, resolution UNINDEXED)');
  for (const p of pages) {
    const { title, content } = textOf(p.html);
    db.query('INSERT INTO pages VALUES (?, ?, ?)').run(p.url, title, content.slice(0, 300));
    if (p.newsDate) db.query('INSERT INTO news VALUES (?, ?, ?, ?)').run(p.url, title, content.slice(0, 300), p.newsDate);
    if (p.image) db.query('INSERT INTO images VALUES (?, ?, ?, ?, ?)').run(p.url, title, '', p.image.src, `${p.image.width} x ${p.image.height}`);
  }
  db.close();
  const port = await freePort();
  const settings = `use_default_settings: false
general:
  debug: false
  instance_name: "trawl-test"
  enable_stats: false
search:
  safe_search: 0
  autocomplete: ""
  default_lang: ""
  ban_time_on_fail: 0
  max_ban_time_on_fail: 0
  formats: [html, json]
server:
  port: ${port}
  bind_address: "127.0.0.1"
  secret_key: "trawl-test-secret"
  base_url: false
  image_proxy: false
  http_protocol_version: "1.0"
  method: "GET"
  default_http_headers: {}
ui:
  static_path: "/usr/share/python3-searx/static"
  templates_path: "/usr/share/python3-searx/templates"
  default_theme: oscar
  default_locale: ""
  theme_args:
    oscar_style: logicodev
outgoing:
  request_timeout: 3.0
  pool_connections: 10
  pool_maxsize: 10
engines:
${ENGINE('local pages', 'lp', 'general', dbPath, 'SELECT url, title, content FROM pages WHERE pages MATCH :query ORDER BY rank')}${ENGINE('local news', 'ln', 'news', dbPath, 'SELECT url, title, content FROM news WHERE news MATCH :query ORDER BY rank')}${ENGINE('local images', 'li', 'images', dbPath, 'SELECT url, title, content, img_src, resolution FROM images WHERE images MATCH :query ORDER BY rank')}locales:
  en: English
doi_resolvers:
  oadoi.org: 'https://oadoi.org/'
default_doi_resolver: 'oadoi.org'
`;
  const settingsPath = join(dir, 'settings.yml');
  writeFileSync(settingsPath, settings);
  const proc = Bun.spawn(['searx-run'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SEARX_SETTINGS_PATH: settingsPath, PYTHONUNBUFFERED: '1' },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const url = `http://127.0.0.1:${port}`;
  const log: string[] = [];
  void (async () => {
    const reader = proc.stderr.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      log.push(new TextDecoder().decode(value));
    }
  })();
  const stop = async () => {
    proc.kill();
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 40_000;
  while (Date.now() < until) {
    if (proc.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/search?q=probe&format=json`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await Bun.sleep(200);
  }
  await stop();
  throw new Error(`searx did not start: ${log.join('').slice(-2000)}`);
}
