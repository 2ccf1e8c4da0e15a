/**
 * What plugin authors import as `trawl/plugin` (docs/plugins.md): the `define*` helpers, the plugin
 * types, `TrawlError` and TypeBox's `Type`. From a checkout it is this file (package.json `exports`); inside the compiled
 * binary the external plugin loader (core/external-plugins.ts) serves this same module instance under
 * that name, so a plugin loaded from `TRAWL_PLUGINS_DIR` shares the binary's classes (an error it
 * throws is a TrawlError the core recognises). Keep it light: no heavy imports.
 */
export {
  defineEngine,
  defineFormat,
  defineModelProvider,
  defineParser,
  defineProxy,
  defineSearchProvider,
  defineSupport,
  defineThreatList,
  ALL_FORMAT_SURFACES,
} from './plugin.ts';
export type {
  AnyPlugin,
  EngineCapture,
  EngineFeature,
  EnginePlugin,
  EngineRequest,
  EngineResponse,
  FormatContent,
  FormatInput,
  FormatPlugin,
  FormatSurface,
  ParsedDocument,
  ParserInput,
  ParserOptions,
  ParserPlugin,
  PluginContext,
  PluginKind,
  ProxyPlugin,
  SearchProviderPlugin,
  SupportPlugin,
  ThreatListPlugin,
} from './plugin.ts';
export { TrawlError, type ErrorCode } from './errors.ts';
/** TypeBox, for a format's `options` schema: the core's own copy, so no install is needed. */
export { Type, type Static, type TSchema } from '@sinclair/typebox';
