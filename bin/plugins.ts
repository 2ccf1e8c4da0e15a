/**
 * `trawl plugins list [--json]`: every plugin this configuration runs with, built-in and external
 * (`TRAWL_PLUGINS_DIR`, docs/plugins.md), with its kind and source. External plugins are loaded and
 * checked exactly as at server start, so a broken one is reported here the same way (exit 2).
 */
import { ConfigError, type ResolvedConfig } from '../core/config.ts';
import { registryFor } from '../core/external-plugins.ts';

const HELP = `Usage: trawl plugins list [--json]

Lists the plugins Trawl runs with: kind, name and source ("built-in" or the file of an external
plugin loaded from TRAWL_PLUGINS_DIR). A plugin that fails its checks is reported and exits 2.
  --json   one JSON array of { kind, name, source }`;

/** Runs the plugins command; returns the exit code (0 listed, 2 usage or a broken plugin). */
export async function pluginsMain(args: string[], config: ResolvedConfig): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const [sub = 'list', ...rest] = args;
  if (sub !== 'list' || rest.some((a) => a !== '--json')) {
    process.stderr.write(`trawl plugins: unknown arguments "${args.join(' ')}"\n\n${HELP}\n`);
    return 2;
  }
  let registry;
  try {
    registry = await registryFor(config);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`trawl: ${e.message}\n`);
    return 2;
  }
  const rows = registry.kinds().flatMap((kind) => registry.names(kind).map((name) => ({ kind, name, source: registry.source(kind, name) })));
  if (rest.includes('--json')) {
    process.stdout.write(`${JSON.stringify(rows)}\n`);
    return 0;
  }
  const kindWidth = Math.max(4, ...rows.map((r) => r.kind.length));
  const nameWidth = Math.max(4, ...rows.map((r) => r.name.length));
  const line = (k: string, n: string, s: string) => `${k.padEnd(kindWidth)}  ${n.padEnd(nameWidth)}  ${s}\n`;
  process.stdout.write(line('KIND', 'NAME', 'SOURCE') + rows.map((r) => line(r.kind, r.name, r.source)).join(''));
  return 0;
}
