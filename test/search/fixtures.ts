/**
 * The local site the search API tests scrape and crawl before they search: a few articles about tides,
 * an unrelated page, and an arXiv-style paper page with Highwire `citation_*` meta tags.
 */

const iso = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><nav><a href="/">Home</a></nav><main><article><h1>${title}</h1>${body}</article></main><footer>Coastal Notes</footer></body></html>`;

export const SITE: Record<string, string> = {
  '/': page('Coastal Notes', '<p>Notes about the sea.</p><ul><li><a href="/tides">Tide tables</a></li><li><a href="/moon">Moon</a></li><li><a href="/harbour">Harbour</a></li><li><a href="/paper">Paper</a></li></ul>'),
  '/tides': page(
    'Tide tables of the North Sea',
    '<p>The tide rises twice a day along the coast of the North Sea, driven by the moon and the sun. Fishermen read tide tables before they leave the harbour.</p><p>At Den Helder high water comes at 06:12 today.</p>',
    `<meta name="description" content="How tides work along the coast."><meta property="og:type" content="article"><meta property="article:published_time" content="${iso(1)}"><meta property="og:image" content="/img/tide.jpg"><meta property="og:image:width" content="1200"><meta property="og:image:height" content="800">`,
  ),
  '/moon': page('Moon phases and spring tides', '<p>New moon and full moon bring spring tides; the half moon brings neap tides. The moon pulls the water of the oceans towards it.</p>', '<meta name="description" content="The moon and the tides.">'),
  '/harbour': page('Harbour opening hours', '<p>The harbour of Den Helder opens at six in the morning. Boats wait for high water before they sail.</p>', '<meta name="description" content="When the harbour opens.">'),
  '/volcano': page('Volcanoes of Iceland', '<p>Lava fields and geysers, far from the coast.</p>'),
  '/paper': page(
    'Tidal energy extraction in shallow seas',
    '<p>Abstract: We study tidal energy extraction in shallow seas using arrays of turbines.</p>',
    '<meta name="citation_title" content="Tidal energy extraction in shallow seas"><meta name="citation_author" content="Doe, Jane"><meta name="citation_author" content="Roe, Richard"><meta name="citation_date" content="2024/01/03"><meta name="citation_arxiv_id" content="2401.01234"><meta name="citation_doi" content="10.1000/tide.2024.1"><meta name="citation_abstract" content="We study tidal energy extraction in shallow seas using arrays of turbines and measure the basin resonance."><meta name="citation_keywords" content="physics.ao-ph">',
  ),
};

/** Pages scraped before searching (the home page and the volcano are crawled or left out). */
export const SCRAPED = ['/tides', '/moon', '/harbour', '/paper'];
