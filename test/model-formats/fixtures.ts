/**
 * Fixture pages whose facts are known, for the deterministic model-format answers (issue 18 "done
 * when"): each page, a JSON Schema a caller would send, and the values the page states (`stated`;
 * schema properties not listed there are not stated and must come back null).
 */
export interface KnownPage {
  name: string;
  html: string;
  schema: Record<string, unknown>;
  stated: Record<string, unknown>;
}

const page = (head: string, body: string) => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

export const KNOWN_PAGES: KnownPage[] = [
  {
    name: 'product with JSON-LD',
    html: page(
      `<title>Trail Runner X2 | Shop</title><script type="application/ld+json">${JSON.stringify({
        '@context': 'https://schema.org', '@type': 'Product', name: 'Trail Runner X2', sku: 'TR-X2-42', description: 'A light trail running shoe with a grippy sole.',
        brand: { '@type': 'Brand', name: 'Acme Outdoors' },
        offers: { '@type': 'Offer', price: '129.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
        aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.6', reviewCount: '87' },
      })}</script>`,
      '<main><h1>Trail Runner X2</h1><p>A light trail running shoe with a grippy sole.</p><p>Only 129 EUR.</p></main>',
    ),
    schema: { type: 'object', properties: { name: { type: 'string' }, brand: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, sku: { type: 'string' }, rating: { type: 'number' }, reviewCount: { type: 'integer' }, warranty: { type: 'string' }, weight: { type: 'string' } } },
    stated: { name: 'Trail Runner X2', brand: 'Acme Outdoors', price: 129, currency: 'EUR', sku: 'TR-X2-42', rating: 4.6, reviewCount: 87 },
  },
  {
    name: 'product with only visible tables',
    html: page('<title>Kettle K100</title>', `<main><h1>Electric Kettle K100</h1><p>Boils a litre in three minutes.</p>
      <table><tr><th>Price</th><td>$49.90</td></tr><tr><th>Brand</th><td>Boilwell</td></tr><tr><th>Capacity</th><td>1.7 l</td></tr>
      <tr><th>Weight</th><td>1.1 kg</td></tr><tr><th>Color</th><td>Brushed steel</td></tr></table></main>`),
    schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, brand: { type: 'string' }, capacity: { type: 'string' }, weight: { type: 'string' }, color: { type: 'string' }, sku: { type: 'string' }, rating: { type: 'number' } } },
    stated: { name: 'Electric Kettle K100', price: 49.9, brand: 'Boilwell', capacity: '1.7 l', weight: '1.1 kg', color: 'Brushed steel' },
  },
  {
    name: 'article with byline and date',
    html: page(
      '<title>Tides explained - The Coast Journal</title><meta property="og:title" content="Why the tide comes in twice a day"><meta property="article:published_time" content="2026-03-14T09:30:00Z"><meta property="article:section" content="Science"><meta name="author" content="Maria Lopez">',
      '<article><h1>Why the tide comes in twice a day</h1><p class="byline">By Maria Lopez | March 14, 2026</p><p>The moon pulls the ocean toward it, and the earth is pulled away from the water on the far side.</p></article>',
    ),
    schema: { type: 'object', properties: { title: { type: 'string' }, author: { type: 'string' }, publishedDate: { type: 'string' }, section: { type: 'string' }, wordCount: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } },
    stated: { title: 'Why the tide comes in twice a day', author: 'Maria Lopez', publishedDate: '2026-03-14T09:30:00Z', section: 'Science' },
  },
  {
    name: 'recipe (microdata)',
    html: page('<title>Lemon pancakes</title>', `<main><div itemscope itemtype="https://schema.org/Recipe">
      <h1 itemprop="name">Lemon pancakes</h1><p>Prep time: <meta itemprop="prepTime" content="PT10M">10 minutes</p>
      <p>Cook time: <meta itemprop="cookTime" content="PT15M">15 minutes</p><p>Serves <span itemprop="recipeYield">4</span></p>
      <h2>Ingredients</h2><ul><li itemprop="recipeIngredient">200 g flour</li><li itemprop="recipeIngredient">2 eggs</li><li itemprop="recipeIngredient">1 lemon</li></ul>
      <h2>Method</h2><p itemprop="recipeInstructions">Whisk everything and fry in a hot pan.</p></div></main>`),
    schema: { type: 'object', properties: { name: { type: 'string' }, prepTime: { type: 'string' }, cookTime: { type: 'string' }, servings: { type: 'integer' }, ingredients: { type: 'array', items: { type: 'string' } }, instructions: { type: 'string' }, calories: { type: 'number' } } },
    stated: { name: 'Lemon pancakes', prepTime: 'PT10M', cookTime: 'PT15M', servings: 4, ingredients: ['200 g flour', '2 eggs', '1 lemon'], instructions: 'Whisk everything and fry in a hot pan.' },
  },
  {
    name: 'event (definition list and labels)',
    html: page('<title>Harbour Jazz Night</title>', `<main><h1>Harbour Jazz Night</h1><p>An evening of jazz by the water.</p>
      <dl><dt>Date</dt><dd>2026-07-18</dd><dt>Venue</dt><dd>Pier 4 Hall</dd><dt>City</dt><dd>Bergen</dd></dl>
      <p>Organizer: Bergen Jazz Club</p><p>Tickets: 250 NOK</p></main>`),
    schema: { type: 'object', properties: { name: { type: 'string' }, date: { type: 'string' }, venue: { type: 'string' }, city: { type: 'string' }, organizer: { type: 'string' }, tickets: { type: 'string' }, performers: { type: 'array', items: { type: 'string' } }, capacity: { type: 'integer' } } },
    stated: { name: 'Harbour Jazz Night', date: '2026-07-18', venue: 'Pier 4 Hall', city: 'Bergen', organizer: 'Bergen Jazz Club', tickets: '250 NOK' },
  },
  {
    name: 'product among distractors (site JSON-LD first, related products, footer)',
    html: page(
      `<title>Desk Lamp Nova</title><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@graph': [
        { '@type': 'Organization', name: 'Lumen Shop Ltd', url: 'http://127.0.0.1/' },
        { '@type': 'BreadcrumbList', itemListElement: [{ '@type': 'ListItem', position: 1, name: 'Lamps' }] },
        { '@type': 'Product', name: 'Desk Lamp Nova', brand: { '@type': 'Brand', name: 'Lumen' }, offers: { '@type': 'Offer', price: '59.00', priceCurrency: 'USD' } },
      ] })}</script>`,
      `<main><h1>Desk Lamp Nova</h1><table><tr><th>Color</th><td>Matte black</td></tr></table>
      <section><h2>Customers also bought</h2><p>Price: $9.99</p><p>Brand: Other Co</p></section></main>
      <footer><p>Phone: +1 555 0100</p><p>© 2026 Lumen Shop Ltd. All rights reserved.</p></footer>`,
    ),
    schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' }, brand: { type: 'string' }, color: { type: 'string' }, material: { type: 'string' }, warranty: { type: 'string' } } },
    stated: { name: 'Desk Lamp Nova', price: 59, currency: 'USD', brand: 'Lumen', color: 'Matte black' },
  },
];
