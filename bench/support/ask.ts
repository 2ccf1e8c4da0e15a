/**
 * Latency of POST /v2/support/ask (issue 21 closing note): a real Trawl (serve mode, fresh Postgres
 * database `test` on 127.0.0.1) and a fixture site; p50/p95 over N asks about a failure whose fix is
 * validated by a re-run (a key restricted to markdown asked for html: the re-run scrapes the page),
 * and over N asks whose class has no re-run (minAge cache miss), and docs-search.
 * Run: bun bench/support/ask.ts [N=40]
 */
import { startAccountsTrawl } from '../../test/accounts/helpers.ts';
import { serveFixtures } from '../../test/helpers/fixture-site.ts';

const N = Number(process.argv[2] ?? 40);
const site = serveFixtures({ '/page': '<html><head><title>P</title></head><body><h1>Page</h1><p>Some text about this page, long enough to count as content.</p></body></html>' });
const trawl = await startAccountsTrawl();
const limited = await trawl.key({ formats: ['markdown'] });

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
async function measure(label: string, path: string, body: Record<string, unknown>, check: (b: any) => boolean) {
  const ms: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const r = await trawl.post(path, body, trawl.auth(limited.key));
    ms.push(performance.now() - t0);
    if (r.status !== 200 || !check(r.body)) throw new Error(`${label}: unexpected answer ${r.status} ${r.text.slice(0, 200)}`);
  }
  console.log(`| ${label} | ${N} | ${pct(ms, 50).toFixed(1)} | ${pct(ms, 95).toFixed(1)} |`);
}

const restricted = { url: site.url('/page'), formats: ['markdown', 'html'] };
await trawl.post('/v2/scrape', restricted, trawl.auth(limited.key));
console.log('| ask | n | p50 ms | p95 ms |\n|---|---:|---:|---:|');
await measure('with validation (key restriction, re-run scrape)', '/v2/support/ask', { question: `403 on ${restricted.url}` }, (b) => b.validation.tested && b.validation.result === 'success');
const minAge = { url: site.url('/page?never'), minAge: 3_600_000 };
await trawl.post('/v2/scrape', minAge, trawl.auth(limited.key));
await measure('without validation (minAge cache miss)', '/v2/support/ask', { question: `what happened to ${minAge.url}` }, (b) => !b.validation.tested && b.answer.includes('cache-miss'));
await measure('docs-search', '/v2/support/docs-search', { question: 'How do I scale out to several machines?' }, (b) => b.evidence.length > 0);

await trawl.stop();
site.stop();
