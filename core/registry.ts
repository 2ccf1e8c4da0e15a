/**
 * The plugin registry: every built-in plugin as `kind -> name -> () => import(...)`. Adding a plugin is
 * one file plus one line here. Loading is lazy and memoized; plugin modules are light (heavy libraries
 * are imported inside their methods), so `all(kind)` is cheap enough for selection by features.
 */
import type { AnyPlugin, PluginByKind, PluginKind } from './plugin.ts';

type Loader<K extends PluginKind> = () => Promise<{ default: PluginByKind[K] }>;
type Table = { [K in PluginKind]: Record<string, Loader<K>> };

/** A plugin loaded from outside the binary (core/external-plugins.ts), with the file it came from. */
export interface ExternalPlugin {
  kind: PluginKind;
  name: string;
  /** Absolute path of the plugin's file. */
  source: string;
  plugin: AnyPlugin;
}

/** Built-in plugins. Order matters where noted (search providers: default fallback order). */
export const BUILTIN_PLUGINS: Table = {
  format: {
    markdown: () => import('../formats/markdown.ts'),
    html: () => import('../formats/html.ts'),
    rawHtml: () => import('../formats/raw-html.ts'),
    links: () => import('../formats/links.ts'),
    screenshot: () => import('../formats/screenshot.ts'),
    rawBase64: () => import('../formats/raw-base64.ts'),
    images: () => import('../formats/images.ts'),
    attributes: () => import('../formats/attributes.ts'),
    branding: () => import('../formats/branding.ts'),
    audio: () => import('../formats/audio.ts'),
    video: () => import('../formats/video.ts'),
    json: () => import('../formats/json.ts'),
    summary: () => import('../formats/summary.ts'),
    question: () => import('../formats/question.ts'),
    query: () => import('../formats/query.ts'),
    highlights: () => import('../formats/highlights.ts'),
    changeTracking: () => import('../formats/change-tracking.ts'),
  },
  parser: {
    html: () => import('../parsers/html.ts'),
    pdf: () => import('../parsers/pdf.ts'),
    image: () => import('../parsers/image.ts'),
    docx: () => import('../parsers/docx.ts'),
    xlsx: () => import('../parsers/xlsx.ts'),
    pptx: () => import('../parsers/pptx.ts'),
    odt: () => import('../parsers/odt.ts'),
    ods: () => import('../parsers/ods.ts'),
    odp: () => import('../parsers/odp.ts'),
    epub: () => import('../parsers/epub.ts'),
    rtf: () => import('../parsers/rtf.ts'),
    doc: () => import('../parsers/doc.ts'),
    csv: () => import('../parsers/csv.ts'),
    text: () => import('../parsers/text.ts'),
  },
  engine: {
    fetch: () => import('../plugins/engine/fetch.ts'),
    browser: () => import('../plugins/engine/browser.ts'),
  },
  proxy: {
    // First route wins: a country's own proxy before the tier's configured proxy.
    country: () => import('../plugins/proxy/country.ts'),
    configured: () => import('../plugins/proxy/configured.ts'),
  },
  'search-provider': {
    searxng: () => import('../plugins/search/searxng.ts'),
    brave: () => import('../plugins/search/brave.ts'),
    serper: () => import('../plugins/search/serper.ts'),
    google: () => import('../plugins/search/google.ts'),
    local: () => import('../plugins/search/local.ts'),
  },
  support: {
    // First diagnosis wins: error-code classes before the ones inferred from job results.
    'pdf-limits': () => import('../plugins/support/pdf-limits.ts'),
    timeout: () => import('../plugins/support/timeout.ts'),
    'cache-miss': () => import('../plugins/support/cache-miss.ts'),
    'key-restriction': () => import('../plugins/support/key-restriction.ts'),
    credits: () => import('../plugins/support/credits.ts'),
    'rate-limit': () => import('../plugins/support/rate-limit.ts'),
    'unsafe-target': () => import('../plugins/support/unsafe-target.ts'),
    'robots-blocked': () => import('../plugins/support/robots-blocked.ts'),
    'invalid-pattern': () => import('../plugins/support/invalid-pattern.ts'),
    'include-paths': () => import('../plugins/support/include-paths.ts'),
    'anti-bot': () => import('../plugins/support/anti-bot.ts'),
    'js-needed': () => import('../plugins/support/js-needed.ts'),
  },
  'threat-list': {
    'local-file': () => import('../plugins/threat-list/local-file.ts'),
    zscaler: () => import('../plugins/threat-list/zscaler.ts'),
  },
  llm: {
    'openai-compatible': () => import('../plugins/llm/openai-compatible.ts'),
  },
};

/** Loads plugins by kind and name, once each. */
export class Registry {
  private readonly cache = new Map<string, Promise<unknown>>();
  /** `all(kind)` per kind: the table never changes, and a scrape asks for the same lists several times. */
  private readonly lists = new Map<PluginKind, Promise<readonly unknown[]>>();
  private readonly sources = new Map<string, string>();

  constructor(private readonly table: Table = BUILTIN_PLUGINS) {}

  /**
   * The built-in plugins plus external ones, registered after the built-in plugins of their kind
   * (a built-in parser or proxy is tried first). Names must not clash: the loader checked that.
   */
  static withExternal(external: readonly ExternalPlugin[], base: Table = BUILTIN_PLUGINS): Registry {
    const table = Object.fromEntries(Object.entries(base).map(([k, v]) => [k, { ...v }])) as Table;
    for (const e of external) (table[e.kind] as Record<string, Loader<PluginKind>>)[e.name] = async () => ({ default: e.plugin as PluginByKind[PluginKind] });
    const registry = new Registry(table);
    for (const e of external) registry.sources.set(`${e.kind}:${e.name}`, e.source);
    return registry;
  }

  /** Where a plugin comes from: `built-in`, or the absolute path of an external plugin's file. */
  source(kind: PluginKind, name: string): string {
    return this.sources.get(`${kind}:${name}`) ?? 'built-in';
  }

  /** Kinds in the table's order. */
  kinds(): PluginKind[] {
    return Object.keys(this.table) as PluginKind[];
  }

  /** Names registered for a kind, in registration order. */
  names(kind: PluginKind): string[] {
    return Object.keys(this.table[kind]);
  }

  has(kind: PluginKind, name: string): boolean {
    return Object.hasOwn(this.table[kind], name);
  }

  /**
   * Loads one plugin.
   * @throws Error when no plugin of that kind and name is registered.
   */
  async get<K extends PluginKind>(kind: K, name: string): Promise<PluginByKind[K]> {
    const loader = (this.table[kind] as Record<string, Loader<K>>)[name];
    if (!loader) throw new Error(`[registry] no ${kind} plugin named "${name}"`);
    const key = `${kind}:${name}`;
    let p = this.cache.get(key) as Promise<PluginByKind[K]> | undefined;
    if (!p) {
      p = loader().then((m) => m.default);
      this.cache.set(key, p);
    }
    return p;
  }

  /**
   * Loads every plugin of a kind, in registration order. The same frozen array every time (a failed
   * load fails every call, as `get` does).
   */
  all<K extends PluginKind>(kind: K): Promise<readonly PluginByKind[K][]> {
    let p = this.lists.get(kind) as Promise<readonly PluginByKind[K][]> | undefined;
    if (!p) {
      p = Promise.all(this.names(kind).map((n) => this.get(kind, n))).then((list) => Object.freeze(list));
      this.lists.set(kind, p);
    }
    return p;
  }

  /** Plugins already loaded (for shutdown hooks such as closing browser pools). */
  async loaded<K extends PluginKind>(kind: K): Promise<PluginByKind[K][]> {
    const out: PluginByKind[K][] = [];
    for (const name of this.names(kind)) {
      const p = this.cache.get(`${kind}:${name}`);
      if (p) out.push((await p) as PluginByKind[K]);
    }
    return out;
  }
}
