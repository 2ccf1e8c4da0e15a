/**
 * `POST /v2/scrape/{scrapeId}/interact` and `DELETE /v2/scrape/{scrapeId}/interact` (interface.md
 * Endpoints; compat.md §5): act on the live page of a scrape with `code` (JavaScript run against a
 * `page` object, see core/interact/page-api.ts) or a natural-language `prompt` (answered by the
 * configured LLM; with both, the code runs and the prompt is not used), and stop the session. `output`
 * holds the result in both modes. Sessions live in this API process (core/interact/sessions.ts)
 * and end when the app stops. Endpoint group `browser`; keyless calls are allowed.
 */
import { Elysia } from 'elysia';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { TrawlError } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { interactSessions } from '../../interact/sessions.ts';
import { errorResponses, ErrorEnvelope } from '../models/common.ts';
import { admit } from '../guard.ts';
import { clientIp } from '../client-ip.ts';

/** Default time limit of one call, seconds (compat.md §5). */
const DEFAULT_TIMEOUT_S = 30;

export const InteractBody = Type.Object(
  {
    prompt: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000, description: 'Natural-language instruction (needs an LLM: OPENAI_BASE_URL)' })),
    code: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100_000, description: 'JavaScript run as the body of an async function with `page` and `console`' }),
    ),
    language: Type.Optional(Type.Union([Type.Literal('node'), Type.Literal('python'), Type.Literal('bash')], { default: 'node' })),
    timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 300, default: DEFAULT_TIMEOUT_S, description: 'Time limit of this call, seconds' })),
  },
  { additionalProperties: true },
);

export const InteractResponse = Type.Object(
  {
    success: Type.Boolean(),
    output: Type.Optional(Type.String()),
    stdout: Type.Optional(Type.String()),
    result: Type.Optional(Type.String()),
    stderr: Type.Optional(Type.String()),
    exitCode: Type.Optional(Type.Integer()),
    killed: Type.Boolean(),
    truncated: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

export const InteractStopResponse = Type.Object({ success: Type.Literal(true), sessionDurationMs: Type.Integer(), creditsBilled: Type.Integer() });

export function interactRoutes(services: Services) {
  const sessions = interactSessions(services);
  const scrapeId = (id: string, missing: TrawlError = new TrawlError('JOB_NOT_FOUND', 'Job not found')) => {
    if (!isUuid(id)) throw missing;
    return id.toLowerCase();
  };
  return new Elysia({ name: 'routes/interact' })
    .onStop(() => sessions.closeAll())
    .post(
      '/v2/scrape/:scrapeId/interact',
      async ({ params, body, request }) => {
        const principal = await admit(services, request, { group: 'browser', keyless: true });
        const id = scrapeId(params.scrapeId);
        if (body.prompt === undefined && body.code === undefined) {
          throw new TrawlError('BAD_REQUEST', 'Send "prompt" (a natural-language instruction) or "code" (JavaScript using the page object).');
        }
        if (body.code !== undefined && (body.language ?? 'node') !== 'node') {
          throw new TrawlError('BAD_REQUEST', `language "${body.language}" is not supported by Trawl; interact code is JavaScript (language "node").`);
        }
        // With both (the SDK sends both when given both), the code runs: it is exact and needs no LLM.
        const call = body.code !== undefined ? { code: body.code } : { prompt: body.prompt };
        const result = await sessions.interact(id, principal, { ...call, timeoutMs: (body.timeout ?? DEFAULT_TIMEOUT_S) * 1000, clientIp: clientIp(request) });
        if (result.kind === 'prompt') return { success: true, output: result.output, killed: false };
        // `output` holds the result in both modes (compat.md §5); for code it is the stdout.
        return {
          success: result.exitCode === 0 && !result.killed,
          output: result.stdout,
          stdout: result.stdout,
          result: result.stdout,
          stderr: result.stderr,
          exitCode: result.exitCode,
          killed: result.killed,
          ...(result.truncated ? { truncated: true } : {}),
        };
      },
      {
        body: InteractBody,
        response: { 200: InteractResponse, ...errorResponses, 409: ErrorEnvelope, 410: ErrorEnvelope, 502: ErrorEnvelope, 503: ErrorEnvelope },
        detail: {
          summary: 'Act on the live page of a scrape',
          tags: ['Scrape'],
          description:
            'The first call opens a browser session replaying the scrape; later calls act on the same page. `code` runs as the body of an async ' +
            'function with `page` (goto, click, type, fill, press, scroll, waitForSelector, evaluate, $eval, content, markdown, screenshot ...) and `console`.',
        },
      },
    )
    .delete(
      '/v2/scrape/:scrapeId/interact',
      async ({ params, request }) => {
        const principal = await admit(services, request, { group: 'browser', keyless: true });
        const stopped = await sessions.stop(scrapeId(params.scrapeId, new TrawlError('NOT_FOUND', 'Browser session not found.')), principal);
        return { success: true as const, ...stopped };
      },
      {
        response: { 200: InteractStopResponse, ...errorResponses },
        detail: { summary: 'Stop the interact session of a scrape', tags: ['Scrape'] },
      },
    );
}
