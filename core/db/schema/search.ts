/**
 * Search tables (migration 0004_search): `search_index`, the local full-text index over scraped pages
 * (one row per final URL, fed by the scrape worker); `papers`, the research paper index (fed from
 * scraped paper pages and PDFs); `search_feedback`, one row per job that received feedback. The
 * `tsv` columns are read and written through raw SQL only, so they are not declared here:
 * `search_index.tsv` is computed by core/search/analyzer.ts (migration 0008), `papers.tsv` is a column
 * the database generates (english text search configuration).
 */
import { bigserial, boolean, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export const SEARCH_INDEX_KINDS = ['web', 'news', 'paper'] as const;
export type SearchIndexKind = (typeof SEARCH_INDEX_KINDS)[number];

export const searchIndex = pgTable(
  'search_index',
  {
    /** Final URL of the page. */
    url: text('url').primaryKey(),
    /** Lower-case host name (site: filters). */
    host: text('host').notNull(),
    /** URL path (site: filters with a path). */
    path: text('path').notNull().default('/'),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    /** Plain text of the page's markdown, at most 64 KiB characters. */
    content: text('content').notNull().default(''),
    kind: text('kind', { enum: SEARCH_INDEX_KINDS }).notNull().default('web'),
    /** `html`, `pdf`, `docx` ... (filetype: operator). */
    filetype: text('filetype').notNull().default('html'),
    language: text('language'),
    imageUrl: text('image_url'),
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    /** Marked as adult content by the page (`<meta name="rating">`); hidden with `safe: true`. */
    adult: boolean('adult').notNull().default(false),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** core/search/local-index.ts ANALYZER_VERSION of the row's tsv; null: the database's to_tsvector (before 0008). */
    analyzer: smallint('analyzer'),
  },
  (t) => [index('search_index_host_idx').on(t.host), index('search_index_kind_published_idx').on(t.kind, t.publishedAt)],
);

export const papers = pgTable('papers', {
  /** The canonical `paperId`, sent as a decimal string. */
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** `arxiv:<id>`, `doi:<doi>`, `pmid:<id>`, `pmcid:<id>`, or `url:<url>` when no id is known. */
  primaryId: text('primary_id').notNull().unique(),
  /** Source ids by namespace: `{ arxiv: ["2401.01234"], doi: ["10.1000/x"] }`. */
  ids: jsonb('ids').$type<Record<string, string[]>>().notNull().default({}),
  title: text('title').notNull(),
  abstract: text('abstract').notNull().default(''),
  /** Comma-joined author names. */
  authors: text('authors').notNull().default(''),
  categories: jsonb('categories').$type<string[]>().notNull().default([]),
  /** `YYYY-MM-DD` when known. */
  createdDate: text('created_date'),
  updatedDate: text('updated_date'),
  url: text('url'),
  pdfUrl: text('pdf_url'),
  /** Full text (plain), at most 256 KiB characters: passages for read mode. */
  body: text('body').notNull().default(''),
  /** Namespaced ids this paper cites (`doi:...`, `arxiv:...`). */
  refs: jsonb('refs').$type<string[]>().notNull().default([]),
  indexedAt: timestamp('indexed_at', { withTimezone: true }).notNull().defaultNow(),
});

export const searchFeedback = pgTable(
  'search_feedback',
  {
    id: text('id').primaryKey(),
    /** The job the feedback is about (unique: one submission counts per job). */
    jobId: text('job_id').notNull().unique(),
    teamId: text('team_id').notNull(),
    /** `search`, `scrape`, `parse` or `map`. */
    endpoint: text('endpoint').notNull(),
    rating: text('rating').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull().default({}),
    creditsRefunded: integer('credits_refunded').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('search_feedback_team_created_idx').on(t.teamId, t.createdAt)],
);

export type SearchIndexRow = typeof searchIndex.$inferSelect;
export type PaperRow = typeof papers.$inferSelect;
