/**
 * Dependency rules of Trawl's layout (shared/style.md "Where things go"; issue 16 scope 3), checked by
 * test/architecture/dependencies.test.ts (so `bun test` and .ci/run enforce them):
 * - no import cycles (type-only imports included);
 * - nothing outside core/http and the modes (bin/, core/runtime.ts, which starts the API) imports
 *   core/http (HTTP sits on top of the domain);
 * - formats and parsers never import each other (they share core/html);
 * - plugins never import the modes (bin/, core/runtime.ts).
 */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Import cycles make load order matter and layers blur.', from: {}, to: { circular: true } },
    {
      name: 'no-http-below-http',
      severity: 'error',
      comment: 'Only core/http and the modes (bin, core/runtime.ts) may import core/http; domain types live in core/scrape.',
      from: { pathNot: '^(core/http/|bin/|core/runtime\\.ts$)' },
      to: { path: '^core/http/' },
    },
    { name: 'formats-not-parsers', severity: 'error', comment: 'Formats share DOM helpers with parsers through core/html.', from: { path: '^formats/' }, to: { path: '^parsers/' } },
    { name: 'parsers-not-formats', severity: 'error', comment: 'Parsers never depend on an output format.', from: { path: '^parsers/' }, to: { path: '^formats/' } },
    { name: 'plugins-not-modes', severity: 'error', comment: 'Plugins never see which mode runs them.', from: { path: '^plugins/' }, to: { path: '^(bin/|core/runtime\\.ts$)' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
  },
};
