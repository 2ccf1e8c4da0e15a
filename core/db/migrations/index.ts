/**
 * The ordered list of SQL migrations. Each file is embedded as text so the list works inside a
 * `bun build --compile` binary. To add one: a new `NNNN_<area>.sql` file (next free number, never edit
 * an applied file) and one import + one entry below. The migrator (core/db/migrate.ts) applies them in
 * name order.
 */
import foundation from './0001_foundation.sql' with { type: 'text' };
import accounts from './0002_accounts.sql' with { type: 'text' };
import crawl from './0003_crawl.sql' with { type: 'text' };
import crawlFunctions from './0003_crawl_functions.sql' with { type: 'text' };
import search from './0004_search.sql' with { type: 'text' };
import scrape from './0005_scrape.sql' with { type: 'text' };
import crawlCharge from './0006_crawl_charge.sql' with { type: 'text' };
import crawlWindowIndexes from './0007_crawl_window_indexes.sql' with { type: 'text' };
import searchAnalyzer from './0008_search_analyzer.sql' with { type: 'text' };
import crawlKeyLookups from './0009_crawl_key_lookups.sql' with { type: 'text' };
import crawlCompletePages from './0010_crawl_complete_pages.sql' with { type: 'text' };
import tenancy from './0011_tenancy_search_webhooks.sql' with { type: 'text' };
import compatScrapeResume from './0012_compat_scrape_resume.sql' with { type: 'text' };
import privacyActivity from './0013_privacy_activity.sql' with { type: 'text' };
import privacyThreat from './0014_privacy_threat.sql' with { type: 'text' };
import queueInterruptions from './0015_queue_interruptions.sql' with { type: 'text' };
import llm from './0016_llm.sql' with { type: 'text' };
import agent from './0018_agent.sql' with { type: 'text' };
import support from './0019_support.sql' with { type: 'text' };
import pageVersions from './0020_page_versions.sql' with { type: 'text' };
import monitors from './0021_monitors.sql' with { type: 'text' };
import crawlIndexSpeed from './0022_crawl_index_speed.sql' with { type: 'text' };

export interface Migration {
  /** Unique, sortable name (the file name without `.sql`), recorded in `trawl_migrations`. */
  name: string;
  /** SQL run in one transaction; must work on PGlite (PostgreSQL 18) and PostgreSQL 15. */
  sql: string;
}

export const migrations: Migration[] = [
  { name: '0001_foundation', sql: foundation },
  { name: '0002_accounts', sql: accounts },
  { name: '0003_crawl', sql: crawl },
  { name: '0003_crawl_functions', sql: crawlFunctions },
  { name: '0004_search', sql: search },
  { name: '0005_scrape', sql: scrape },
  { name: '0006_crawl_charge', sql: crawlCharge },
  { name: '0007_crawl_window_indexes', sql: crawlWindowIndexes },
  { name: '0008_search_analyzer', sql: searchAnalyzer },
  { name: '0009_crawl_key_lookups', sql: crawlKeyLookups },
  { name: '0010_crawl_complete_pages', sql: crawlCompletePages },
  { name: '0011_tenancy_search_webhooks', sql: tenancy },
  { name: '0012_compat_scrape_resume', sql: compatScrapeResume },
  { name: '0013_privacy_activity', sql: privacyActivity },
  { name: '0014_privacy_threat', sql: privacyThreat },
  { name: '0015_queue_interruptions', sql: queueInterruptions },
  { name: '0016_llm', sql: llm },
  { name: '0018_agent', sql: agent },
  { name: '0019_support', sql: support },
  { name: '0020_page_versions', sql: pageVersions },
  { name: '0021_monitors', sql: monitors },
  { name: '0022_crawl_index_speed', sql: crawlIndexSpeed },
];
