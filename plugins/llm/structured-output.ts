/**
 * How an OpenAI-compatible server is asked for JSON (README "Models"). Three means, best first:
 * `json_schema` (`response_format` with the schema: OpenAI, vLLM, llama.cpp's server, LM Studio,
 * Ollama ≥ 0.5), `json_object` (JSON mode, the schema in a system message), `prompt` (the schema in a
 * system message only, for servers with neither). With `TRAWL_MODEL_STRUCTURED_OUTPUT=auto` a client
 * starts with `json_schema` and steps down when the server answers 400 to a request using it;
 * `StructuredOutput` remembers the step for the process, so the 400 is paid once.
 */
import type { ModelMessage, ModelOutputFormat } from '../../core/plugin.ts';

export type OutputMeans = 'json_schema' | 'json_object' | 'prompt';

const ORDER: OutputMeans[] = ['json_schema', 'json_object', 'prompt'];

/** The means a client uses now, and the step down after a refusal. */
export class StructuredOutput {
  private current: OutputMeans;

  /** @param mode the configured `structuredOutput` (`auto` starts at `json_schema` and may step down) */
  constructor(private readonly mode: 'auto' | OutputMeans) {
    this.current = mode === 'auto' ? 'json_schema' : mode;
  }

  get means(): OutputMeans {
    return this.current;
  }

  /**
   * Steps down after the server refused `used` with a 400.
   * @returns true when there is a next means to try (auto mode only)
   */
  stepDown(used: OutputMeans): boolean {
    if (this.mode !== 'auto') return false;
    const next = ORDER[ORDER.indexOf(used) + 1];
    if (!next) return false;
    if (ORDER.indexOf(this.current) < ORDER.indexOf(next)) this.current = next;
    return true;
  }
}

/** A `response_format.json_schema.name`: `[A-Za-z0-9_-]`, at most 64 characters. */
export function schemaName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64) || 'answer';
}

/**
 * The request fields and extra messages for `means`.
 * @returns `response_format` to send (or none) and the messages with the schema instruction added
 */
export function structuredRequest(
  output: ModelOutputFormat,
  means: OutputMeans,
  messages: ModelMessage[],
): { responseFormat?: Record<string, unknown>; messages: ModelMessage[] } {
  if (means === 'json_schema') {
    return {
      responseFormat: { type: 'json_schema', json_schema: { name: schemaName(output.name), schema: output.schema, strict: false } },
      messages,
    };
  }
  // JSON mode needs the word "JSON" in the messages (OpenAI refuses it otherwise); both means show the schema.
  const instruction: ModelMessage = {
    role: 'system',
    content: `Answer with one JSON value and nothing else (no prose, no code fences). It must be valid against this JSON Schema:\n${JSON.stringify(output.schema)}`,
  };
  return { responseFormat: means === 'json_object' ? { type: 'json_object' } : undefined, messages: [instruction, ...messages] };
}
