/**
 * The model service (issue 18): builds the `LanguageModel` that plugins and services use
 * (`PluginContext.model`, crawl and interact prompts) from the configured `llm` provider plugin, and
 * binds it to a team: every completion's tokens (prompt, completion, purpose, model) are recorded in
 * `model_usage` for that team (core/llm/usage.ts). One provider client per process and configuration,
 * so its concurrency limit holds for the whole process. No model configured (the default): `modelFor`
 * answers undefined and features fall back to their deterministic paths.
 *
 * Formats that use the model must not be `pure`: pure formats may run on a content thread
 * (core/pipeline/content-threads.ts), where `ctx.model` is never set; only the main thread has it.
 */
import type { ResolvedConfig } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { LanguageModel, ModelClient, ModelCompletion } from '../plugin.ts';
import type { Registry } from '../registry.ts';
import { TrawlError } from '../errors.ts';
import { completeJson } from './structured.ts';
import { recordModelCall } from './usage.ts';

/** Who a model's calls are counted for. */
export interface ModelBinding {
  teamId: string;
  /** The API key that asked (undefined: keyless, auth off, admin). */
  apiKeyId?: string;
  /** The scrape, crawl or batch id the calls belong to. */
  jobId?: string;
}

/** What the service needs: the config, the plugin registry, the database that records usage, a logger. */
export interface ModelServiceDeps {
  config: ResolvedConfig;
  registry: Registry;
  db: Queryable;
  log: Logger;
}

const clients = new WeakMap<ResolvedConfig, Promise<ModelClient>>();

/**
 * The provider client of this process for `config` (the first registered `llm` plugin configured by it).
 * @throws TrawlError BACKEND_UNAVAILABLE when no provider plugin takes the configuration
 */
export function modelClient(deps: Pick<ModelServiceDeps, 'config' | 'registry' | 'log'>): Promise<ModelClient> {
  let client = clients.get(deps.config);
  if (!client) {
    client = (async () => {
      for (const plugin of await deps.registry.all('llm')) {
        if (plugin.configured(deps.config)) return plugin.open(deps.config, deps.log.child({ plugin: plugin.name }));
      }
      throw new TrawlError('BACKEND_UNAVAILABLE', '[llm] no model provider takes this configuration (set OPENAI_BASE_URL or OLLAMA_BASE_URL).');
    })();
    client.catch(() => clients.delete(deps.config));
    clients.set(deps.config, client);
  }
  return client;
}

/**
 * The configured model bound to a team, or undefined when no model is configured.
 * Recording a call's usage never fails the call: a database error is logged.
 */
export function modelFor(deps: ModelServiceDeps, binding: ModelBinding): LanguageModel | undefined {
  const settings = deps.config.llm;
  if (!settings) return undefined;
  const record = async (c: ModelCompletion, purpose: string) => {
    await recordModelCall(deps.db, {
      ...binding, purpose, model: c.model, promptTokens: c.usage.promptTokens, completionTokens: c.usage.completionTokens, estimated: c.estimated,
    }).catch((err) => deps.log.warn({ err, purpose }, '[llm] could not record the tokens of a model call'));
  };
  return {
    name: settings.model,
    contextTokens: settings.contextTokens,
    async chat(request) {
      const client = await modelClient(deps);
      const c = await client.complete(request);
      await record(c, request.purpose);
      return { message: c.message, usage: c.usage, finishReason: c.finishReason };
    },
    async json<T>(request: Parameters<LanguageModel['json']>[0]) {
      const client = await modelClient(deps);
      return completeJson<T>(client, request, (c) => record(c, request.purpose));
    },
  };
}
