/**
 * Plugins without a rebuild (issue 24 scope 4; docs/plugins.md): the files and folders of
 * `ResolvedConfig.pluginPaths` are imported at start (Bun transpiles `.ts` itself, in the compiled
 * binary too), their default exports checked like built-in plugins (core/plugin-checks.ts, and a run
 * on a small page or garbage bytes for formats and parsers), then registered after the built-in
 * plugins. Any failure stops startup with a ConfigError naming the plugin's file and what failed.
 *
 * Plugins import their helpers as `trawl/plugin`: a Bun runtime plugin serves core/plugin-api.ts
 * under that name, so external code shares this process's module instance (one TrawlError class),
 * whether Trawl runs from a checkout or as the compiled binary (where no node_modules exists).
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import * as pluginApi from './plugin-api.ts';
import { ConfigError, type ResolvedConfig } from './config.ts';
import { silentLogger, type Logger } from './log.ts';
import type { AnyPlugin } from './plugin.ts';
import { pluginProblems } from './plugin-checks.ts';
import { BUILTIN_PLUGINS, Registry, type ExternalPlugin } from './registry.ts';
import { smokeProblems } from './external-plugin-smoke.ts';

/** File endings of plugin files. */
const PLUGIN_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

let apiServed = false;

/** Serves core/plugin-api.ts as the module `trawl/plugin` in this thread (once). */
function serveTrawlPluginModule(): void {
  if (apiServed) return;
  apiServed = true;
  Bun.plugin({
    name: 'trawl/plugin',
    setup(build) {
      build.module('trawl/plugin', () => ({ exports: { ...pluginApi }, loader: 'object' }));
    },
  });
}

/**
 * The plugin files a list of paths names: a file as is; a folder's `.ts`/`.js` files (not `.d.ts`,
 * tests, or names starting with `_` or `.`) and its subfolders that hold an `index.ts`/`index.js`,
 * in name order.
 * @throws ConfigError when a path does not exist or a file is not a script
 */
export function pluginFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const isScript = (name: string) => PLUGIN_EXTENSIONS.includes(extname(name)) && !/\.d\.[mc]?ts$|\.(test|spec)\.[mc]?[jt]s$/.test(name) && !/^[_.]/.test(name);
  for (const path of paths) {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      throw new ConfigError(`TRAWL_PLUGINS_DIR: ${path} does not exist`);
    }
    if (stat.isFile()) {
      if (!PLUGIN_EXTENSIONS.includes(extname(path))) throw new ConfigError(`TRAWL_PLUGINS_DIR: ${path} is not a plugin file (${PLUGIN_EXTENSIONS.join(', ')})`);
      out.push(path);
      continue;
    }
    for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isFile() && isScript(entry.name)) out.push(join(path, entry.name));
      if (entry.isDirectory() && !/^[_.]|^node_modules$/.test(entry.name)) {
        const index = PLUGIN_EXTENSIONS.map((e) => join(path, entry.name, `index${e}`)).find((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
        if (index) out.push(index);
      }
    }
  }
  return out;
}

/**
 * Imports and checks the external plugins of `paths`.
 * @param checkBehaviour also run formats on a small page and parsers on garbage bytes (startup does;
 *        content threads, which load plugins the main thread checked already, do not)
 * @returns the plugins in file order, each with its kind, name and source file
 * @throws ConfigError `plugin <file>: <what failed>` for the first plugin that fails to load or check
 */
export async function loadExternalPlugins(paths: readonly string[], config: ResolvedConfig, checkBehaviour = true): Promise<ExternalPlugin[]> {
  const files = pluginFiles(paths);
  if (files.length === 0) return [];
  serveTrawlPluginModule();
  const loaded: ExternalPlugin[] = [];
  for (const file of files) {
    let mod: { default?: unknown };
    try {
      mod = await import(file);
    } catch (e) {
      throw new ConfigError(`plugin ${file}: cannot be loaded: ${(e as Error).message ?? e}`);
    }
    const plugin = mod.default as AnyPlugin;
    loaded.push({ kind: plugin?.kind, name: plugin?.name, source: file, plugin });
  }
  const formats = new Set([...Object.keys(BUILTIN_PLUGINS.format), ...loaded.filter((p) => p.kind === 'format').map((p) => p.name)]);
  const seen = new Map<string, string>();
  for (const p of loaded) {
    const problems = pluginProblems(p.plugin, { formats });
    const key = `${p.kind}:${p.name}`;
    if (problems.length === 0 && Object.hasOwn(BUILTIN_PLUGINS[p.kind], p.name)) problems.push(`a built-in ${p.kind} is named "${p.name}" already; choose another name`);
    if (problems.length === 0 && seen.has(key)) problems.push(`the ${p.kind} "${p.name}" is defined by ${seen.get(key)} already`);
    seen.set(key, p.source);
    if (problems.length > 0) throw refusal(p, problems);
  }
  if (checkBehaviour) {
    const registry = Registry.withExternal(loaded);
    for (const p of loaded) {
      const problems = await smokeProblems(p.plugin, registry, config);
      if (problems.length > 0) throw refusal(p, problems);
    }
  }
  return loaded;
}

function refusal(p: ExternalPlugin, problems: string[]): ConfigError {
  const what = p.kind && p.name ? ` (${p.kind} "${p.name}")` : '';
  return new ConfigError(`plugin ${p.source}${what} failed its checks:\n${problems.map((m) => `  - ${m}`).join('\n')}`);
}

/**
 * The registry of a process: the built-in plugins plus the external ones of `config.pluginPaths`.
 * @throws ConfigError as `loadExternalPlugins`
 */
export async function registryFor(config: ResolvedConfig, log: Logger = silentLogger, checkBehaviour = true): Promise<Registry> {
  if (config.pluginPaths.length === 0) return new Registry();
  const external = await loadExternalPlugins(config.pluginPaths, config, checkBehaviour);
  for (const p of external) log.info({ kind: p.kind, plugin: p.name, source: p.source }, 'external plugin registered');
  return Registry.withExternal(external);
}
