/**
 * The database schema: every table, one file per area. A new area adds its file here (one export line)
 * and its own migration in core/db/migrations.
 */
export * from './teams.ts';
export * from './api-keys.ts';
export * from './jobs.ts';
export * from './documents.ts';
export * from './queue-jobs.ts';
export * from './accounts.ts';
export * from './crawl.ts';
export * from './search.ts';
export * from './scrape.ts';
export * from './compat.ts';
export * from './activity.ts';
export * from './model-usage.ts';
export * from './agent.ts';
