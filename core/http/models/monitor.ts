/**
 * Request models of the monitor endpoints (compat.md §15; the SDK's CreateMonitorRequest and
 * UpdateMonitorRequest). Shapes are checked here; the rules between fields (cron or text, 1–50
 * targets, what each target type needs) are checked by core/monitor with messages that say what to send.
 */
import { Type, type TObject } from '@sinclair/typebox';
import { crawlerFields, WebhookModel } from './crawl.ts';

const { url: _url, prompt: _prompt, ...crawlOptionFields } = crawlerFields;

export const ScheduleModel = Type.Object(
  {
    cron: Type.Optional(Type.String({ description: 'Five-field cron expression, e.g. "*/30 * * * *"' })),
    text: Type.Optional(Type.String({ description: 'A phrase such as "every 6 hours" or "daily at 9:00"' })),
    timezone: Type.Optional(Type.String({ description: 'IANA time zone (default UTC)' })),
  },
  { additionalProperties: true },
);

/** One target: `scrape {urls}`, `crawl {url, crawlOptions}` or `search {queries}`, with optional scrapeOptions. */
export function targetModel(scrapeOptions: TObject) {
  return Type.Object(
    {
      id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      type: Type.Union([Type.Literal('scrape'), Type.Literal('crawl'), Type.Literal('search')]),
      urls: Type.Optional(Type.Array(Type.String())),
      url: Type.Optional(Type.String()),
      crawlOptions: Type.Optional(Type.Object(crawlOptionFields, { additionalProperties: true })),
      queries: Type.Optional(Type.Array(Type.String())),
      maxResults: Type.Optional(Type.Integer()),
      includeDomains: Type.Optional(Type.Array(Type.String())),
      excludeDomains: Type.Optional(Type.Array(Type.String())),
      searchWindow: Type.Optional(Type.String()),
      scrapeOptions: Type.Optional(scrapeOptions),
    },
    { additionalProperties: true },
  );
}

const commonFields = (scrapeOptions: TObject) => ({
  schedule: Type.Optional(ScheduleModel),
  targets: Type.Optional(Type.Array(targetModel(scrapeOptions))),
  webhook: Type.Optional(Type.Union([WebhookModel, Type.Null()])),
  notification: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
  retentionDays: Type.Optional(Type.Integer()),
  goal: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
  judgeEnabled: Type.Optional(Type.Boolean()),
});

/** `POST /v2/monitor`. */
export function createMonitorModel(scrapeOptions: TObject) {
  return Type.Object({ name: Type.String(), ...commonFields(scrapeOptions) }, { additionalProperties: true });
}

/** `PATCH /v2/monitor/{id}`. */
export function updateMonitorModel(scrapeOptions: TObject) {
  return Type.Object(
    { name: Type.Optional(Type.String()), status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])), ...commonFields(scrapeOptions) },
    { additionalProperties: true },
  );
}
