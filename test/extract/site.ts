/**
 * Fixture sites of the extract tests and bench (served on 127.0.0.1): a shop of `products` product
 * pages (`/p/1` …), each stating its product in JSON-LD (so the no-model path can read it) and in
 * its text ("Product: Widget 3", "Price: 13 USD"), a `/p/` listing that links to them, a sitemap
 * listing them and `/hidden/1` (a product no page links to);
 * a second site with no sitemap whose only page links nowhere (a glob over it finds nothing).
 */
import { serveFixtures, type FixtureSite } from '../helpers/fixture-site.ts';

/** Name and price of product `i` (1-based). */
export const product = (i: number) => ({ name: `Widget ${i}`, price: 10 + i });

function productPage(i: number): string {
  const p = product(i);
  const ld = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: p.name, brand: 'Acme', offers: { '@type': 'Offer', price: p.price, priceCurrency: 'USD' } });
  return `<!doctype html><html><head><title>${p.name} | Acme shop</title><script type="application/ld+json">${ld}</script></head>
<body><main><h1>${p.name}</h1><p>Product: ${p.name}</p><p>Price: ${p.price} USD</p>
<p>The ${p.name} is a sturdy widget made by Acme for workshops of every size, sold with a two year warranty and free returns.</p></main></body></html>`;
}

/** The shop: `/p/` lists `/p/1` … `/p/<products>`; `/sitemap.xml` lists them too. */
export function startShop(products = 10): FixtureSite {
  const routes: Record<string, string | { body: string; headers: Record<string, string> }> = {};
  const links: string[] = [];
  for (let i = 1; i <= products; i++) {
    routes[`/p/${i}`] = productPage(i);
    links.push(`/p/${i}`);
  }
  routes['/p/'] = `<html><head><title>All products</title></head><body><main><h1>All products</h1><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul></main></body></html>`;
  routes['/'] = `<html><head><title>Acme shop</title></head><body><h1>Acme shop</h1><a href="/p/">Products</a></body></html>`;
  // A section only the sitemap lists: its page links nowhere.
  routes['/hidden/'] = '<html><head><title>Hidden</title></head><body><h1>Hidden</h1><p>See the sitemap.</p></body></html>';
  routes['/hidden/1'] = productPage(products + 1);
  const listed = [...links, '/hidden/1'];
  const site = serveFixtures({
    ...routes,
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
    '/sitemap.xml': (_req, url) =>
      new Response(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed.map((l) => `<url><loc>${url.origin}${l}</loc></url>`).join('')}</urlset>`, {
        headers: { 'content-type': 'application/xml' },
      }),
  });
  return site;
}

/** A site without a sitemap whose one page links nowhere. */
export function startBareSite(): FixtureSite {
  return serveFixtures({
    '/docs/': '<html><head><title>Docs</title></head><body><h1>Docs</h1><p>Nothing else here.</p></body></html>',
  });
}

/** A fake model's answer for one page of the shop: the product its text states. */
export function answerFor(content: string): { products: { name: string; price: number }[] } | undefined {
  const name = /Product: (Widget \d+)/.exec(content)?.[1];
  const price = /Price: (\d+) USD/.exec(content)?.[1];
  if (!name || !price) return undefined;
  return { products: [{ name, price: Number(price) }] };
}
