/**
 * TypeBox models of the agent endpoints (compat.md §13, issue 19), named for the OpenAPI page. Unknown
 * keys are tolerated (compat.md §1.2). `prompt`, `schema` and `maxCredits` are checked by
 * core/agent/options.ts, which names the field in its 400 (a missing prompt, an invalid schema,
 * `maxCredits` out of range).
 */
import { Type } from '@sinclair/typebox';
import { WebhookModel } from './crawl.ts';
import { AuditMetadata } from './scrape.ts';

export const AgentBody = Type.Object(
  {
    prompt: Type.Optional(Type.String({ maxLength: 10_000, description: 'What the agent should find (required)' })),
    urls: Type.Optional(Type.Array(Type.String(), { description: 'URLs to start from (at most 100)' })),
    schema: Type.Optional(Type.Unknown({ description: 'JSON Schema of `data`' })),
    maxCredits: Type.Optional(Type.Number({ description: 'Credit budget of the run (default 2500, 1 to 100000)' })),
    strictConstrainToURLs: Type.Optional(Type.Boolean({ description: 'Stay within `urls` and the pages under them; no web search' })),
    model: Type.Optional(Type.String({ maxLength: 100, description: 'Any value; recorded and shown in status (Trawl runs its configured model)' })),
    effort: Type.Optional(Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')], { description: 'Step budget: low 8, medium 20, high 40 tool calls' })),
    mode: Type.Optional(Type.Union([Type.Literal('extract'), Type.Literal('chat')], { description: '`extract`: JSON in `data`; `chat`: text in `message`' })),
    webhook: Type.Optional(WebhookModel),
    zeroDataRetention: Type.Optional(Type.Boolean()),
    threatProtection: Type.Optional(Type.Unknown()),
    auditMetadata: Type.Optional(AuditMetadata),
    threadId: Type.Optional(Type.Unknown({ description: 'Not supported (400)' })),
    exchange: Type.Optional(Type.Unknown({ description: 'Not supported (400)' })),
    origin: Type.Optional(Type.String()),
    integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);

export const AgentStarted = Type.Object({ success: Type.Literal(true), id: Type.String() });

const TraceStep = Type.Object(
  {
    step: Type.Integer(),
    type: Type.Union([Type.Literal('model'), Type.Literal('tool')]),
    tool: Type.Optional(Type.String()),
    input: Type.Optional(Type.Unknown()),
    summary: Type.Optional(Type.String()),
    ok: Type.Boolean(),
    creditsUsed: Type.Number(),
    tokens: Type.Optional(Type.Number()),
    at: Type.String(),
  },
  { additionalProperties: true },
);

export const AgentStatusModel = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')]),
    data: Type.Optional(Type.Unknown()),
    message: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
    model: Type.String(),
    effort: Type.Optional(Type.String()),
    expiresAt: Type.String(),
    creditsUsed: Type.Number(),
    tokensUsed: Type.Number(),
    stopReason: Type.Optional(Type.String()),
    stepsUsed: Type.Integer(),
    maxSteps: Type.Integer(),
    maxCredits: Type.Integer(),
    trace: Type.Array(TraceStep),
  },
  { additionalProperties: true },
);

export const AgentCancelled = Type.Object({ success: Type.Literal(true) });

export const AgentListModel = Type.Object(
  {
    success: Type.Literal(true),
    agents: Type.Array(Type.Object({ id: Type.String(), createdAt: Type.String(), status: Type.String() }, { additionalProperties: true })),
    next: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
