/**
 * The resolved scrape options and the normalized format spec: domain types shared by the pipeline,
 * the cache, crawl, search and the plugins (interface.md "Scrape options"). The HTTP request models
 * (core/http/models/scrape.ts) build on them; nothing here depends on HTTP.
 */
import type { Action } from './actions.ts';
import type { ThreatPolicy } from '../threat/policy.ts';

/** A normalized format: always the object form. */
export interface FormatSpec {
  type: string;
  [option: string]: unknown;
}

/** Scrape options after defaults (core/pipeline/scrape-options.ts resolves them; the HTTP models build on them). */
export interface ScrapeOptions {
  formats: FormatSpec[];
  actions?: Action[];
  /** Audit attribution only (compat.md §2.2); stored with the team's activity. */
  auditMetadata?: { username: string };
  blockAds: boolean;
  excludeTags?: string[];
  headers?: Record<string, string>;
  includeTags?: string[];
  location?: { country: string; languages?: string[] };
  lockdown: boolean;
  maxAge: number;
  minAge?: number;
  mobile: boolean;
  onlyCleanContent: boolean;
  onlyMainContent: boolean;
  /** Normalized parser list; default `[{ type: 'pdf' }]`. */
  parsers: { type: string; mode?: 'fast' | 'auto' | 'ocr'; maxPages?: number; pages?: boolean; pageMarkers?: boolean; blocks?: boolean }[];
  profile?: { name: string; saveChanges: boolean };
  /** `stealth` is normalized to `enhanced` (compat.md §1.2). */
  proxy: 'basic' | 'enhanced' | 'auto';
  redactPII?: boolean | { mode?: string; entities?: string[]; replaceStyle?: string };
  removeBase64Images: boolean;
  skipTlsVerification: boolean;
  storeInCache: boolean;
  /** The policy in force (core/threat): the request's over the team's; undefined when nothing is checked. */
  threatProtection?: ThreatPolicy;
  /** ms, 1000 to 300000. */
  timeout: number;
  /** ms. */
  waitFor: number;
  zeroDataRetention: boolean;
}
