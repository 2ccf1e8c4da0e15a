/**
 * onlyMainContent on fixture pages modelled on real layouts (test/fixtures/pages): article text kept,
 * boilerplate gone. Each page is checked on sentences from its body and from its chrome.
 */
import { describe, expect, test } from 'bun:test';
import { fixture, pageToMarkdown } from './helpers.ts';

interface Case {
  file: string;
  url: string;
  kept: string[];
  gone: string[];
  /** Markdown must start with this (the title heading). */
  startsWith?: string;
}

const CASES: Case[] = [
  {
    file: 'wordpress-blog.html',
    url: 'https://crumbjournal.example/2023/01/sourdough-starter-winter/',
    startsWith: '# Why Sourdough Starters Fail in Winter (and How to Fix Yours)',
    kept: [
      'a sourdough culture is, above all, a thermometer with a smell',
      '## Five fixes that work',
      '1. **Find a warm spot, not a hot one.**',
      '| Kitchen temperature | Feeding ratio | Water temperature | Time to peak |',
      '> Treat the temperature as an ingredient.',
      '![](https://crumbjournal.example/wp-content/uploads/2023/01/starter-comparison-1024x683.jpg)',
      '[an earlier post](https://crumbjournal.example/2022/08/drying-sourdough-starter/)',
    ],
    gone: ['Skip to content', 'Proudly powered by WordPress', 'Share this', 'Click to share on Twitter', 'Building a Rye Starter from Scratch', 'I keep mine in a small picnic cooler', 'Leave a Reply', 'Recent Posts', 'About the baker', 'We use cookies', 'Previous Post', 'Enriched doughs', 'Get new posts by email'],
  },
  {
    file: 'news-article.html',
    url: 'https://www.dailyledger.example/2024/03/12/metro/harlow-rail-yard-park.html',
    startsWith: '# City Council Approves Plan to Turn Rail Yard Into Riverside Park',
    kept: [
      'ending a four-year battle between neighborhood groups',
      '## Designed to flood',
      'This is really a piece of infrastructure that happens to have benches.',
      'Maybe my grandkids will get to play behind it.',
    ],
    gone: ['Advertisement', 'SKIP ADVERTISEMENT', 'Subscribe for $1/week', 'Storm updates', 'Get the best of The Ledger in your inbox', 'Subway Signal Upgrade', 'The Sleep Habit', 'We value your privacy', 'Site Index', 'Terms of Service', 'Why Basement Apartments Keep Flooding', '178 Comments'],
  },
  {
    file: 'medium-like.html',
    url: 'https://medium.example/engineering-at-kestrel/monorepo-40-services',
    startsWith: '# What I Learned Migrating 40 Services to a Monorepo',
    kept: ['Eighteen months ago, the backend team at Kestrel owned forty services', '## Migrate the boring services first', "```bash\n$ build query 'rdeps(//..., //lib/auth:client)' | wc -l", '> A migration plan that depends on the hardest case going well is not a plan.', '- A custom code-owners bot.'],
    gone: ['Sign up', 'Recommended from Medium', 'Flaky Tests Are a Signal', 'Responses (23)', 'Written by Leah Brandt', 'Text to speech', 'The Case for Boring Databases'],
  },
  {
    file: 'docs-docusaurus.html',
    url: 'https://docs.larkspur.example/guides/caching',
    startsWith: '# Caching responses',
    kept: ['## Enabling the cache', '```ts\nimport { createApp, cache } from \'larkspur\';', '| `ttl` | `number \\| string` | `60` | How long an entry stays fresh. |', '2. After writing to the products table', 'With the memory store, purging only affects the current process.'],
    gone: ['Skip to main content', 'Larkspur 4.0 is out', 'Background jobs', 'On this page', 'Edit this page', 'Copyright © 2024', 'Stack Overflow', 'Direct link to'],
  },
  {
    file: 'short-news-brief.html',
    url: 'https://coastline.example/news/local/ferries-gales',
    startsWith: '# Ferry services suspended as gales hit west coast',
    kept: ['All ferry sailings between the mainland and the outer isles have been cancelled', 'Island shops have warned that fresh produce may run short'],
    gone: ['This website uses cookies', 'Harbour dredging work', 'Most read', 'Family notices', 'WhatsApp', 'Registered in Scotland', "What's On"],
  },
  {
    file: 'blogger-br.html',
    url: 'https://oldtrainnotes.example/2017/03/station-clock.html',
    startsWith: '### Restoring the station clock at Ashby Junction',
    kept: ['The hands were stuck at twenty past four', '**The movement**', 'mostly patience with a bit of brass', 'Thanks to everyone who donated'],
    gone: ['Railway history, restoration diaries', 'Blog Archive', 'My grandfather was a porter', 'Share to X', 'Powered by', 'Newer Post', 'View my complete profile'],
  },
  {
    file: 'wiki-article.html',
    url: 'https://en.openpedia.example/wiki/Glass_sponge',
    startsWith: '# Glass sponge',
    kept: ['whose skeletons are built from', '### Reefs', 'Glass sponge reefs were thought to have died out with the dinosaurs'],
    gone: ['Jump to content', 'Create account', 'Random article', 'Privacy policy', 'Demospongiae', 'View history', 'This page was last edited', 'Categories:'],
  },
  {
    file: 'table-layout-old.html',
    url: 'http://electronics-corner.example/crystal.html',
    startsWith: '## Building a Crystal Radio',
    kept: ['It needs no battery and no mains power', '- A germanium diode such as the OA91 or 1N34A', '| Connection | From | To |', 'never put an antenna up near power lines'],
    gone: ['Valve amplifier', 'Resistor colour codes', 'Guestbook', 'Electronics Webring'],
  },
  {
    file: 'semantic-html5.html',
    url: 'https://gruenes-quartier.example/magazin/stadtbaeume-wasser/',
    kept: ['# Warum Stadtbäume im Sommer mehr Wasser brauchen', 'Eine ausgewachsene Linde verdunstet', '- Lieber selten und viel gießen', 'Schwammstadt-Konzepte', '![](https://gruenes-quartier.example/magazin/bilder/baumscheibe.jpg)'],
    gone: ['Impressum', 'Das könnte Sie auch interessieren', 'Regenwasser im Hinterhof sammeln', 'Termine', 'Lindenstraße 12'],
  },
  {
    file: 'news-guardian-like.html',
    url: 'https://www.thecourier.example/travel/2024/mar/16/night-trains-europe',
    startsWith: '# Night trains are back in Europe – but can they survive the price war with budget airlines?',
    kept: ['It is just after 10pm at Vienna Hauptbahnhof', '## The price problem', '> Every new route we open sells out within weeks.', 'And the cello flies free.'],
    gone: ['Skip to main content', 'Support us', 'The 10 best sleeper trains in Europe', 'Sign up to The Journey', 'Explore more on these topics', 'Reuse this content', 'We have a small favour to ask', 'Most viewed', 'More on this story', 'Cookie policy'],
  },
  {
    file: 'category-listing.html',
    url: 'https://trailhead.example/regions/north/trails',
    startsWith: '# Hiking Trails in the Northern Valleys',
    kept: ['| [Crow Ridge](https://trailhead.example/trails/crow-ridge) | 11.8 km | 640 m | Hard | Ridge walk, views to the coast |', 'River Terraces', 'current trail conditions'],
    gone: ['Popular regions', 'Advertisement', 'Privacy'],
  },
];

describe('onlyMainContent on fixture pages', () => {
  for (const c of CASES) {
    test(c.file, async () => {
      const out = pageToMarkdown(await fixture(c.file), { url: c.url });
      if (c.startsWith) expect(out.startsWith(c.startsWith)).toBe(true);
      for (const s of c.kept) expect(out).toContain(s);
      for (const s of c.gone) expect(out).not.toContain(s);
    });
  }

  test('full page keeps the chrome the main-content view drops', async () => {
    const out = pageToMarkdown(await fixture('wordpress-blog.html'), { onlyMainContent: false });
    expect(out).toContain('Recent Posts');
    expect(out).toContain('I keep mine in a small picnic cooler');
    expect(out).toContain('a thermometer with a smell');
  });

  test('a page that is only a list falls back to a light cleanup instead of returning nothing', () => {
    const items = Array.from({ length: 30 }, (_, i) => `<li><a href="/item/${i}">Item number ${i}</a></li>`).join('');
    const html = `<body><header><a href="/">Logo</a></header><div class="content"><h1>All items</h1><ul>${items}</ul></div><footer>Legal</footer></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('# All items');
    expect(out).toContain('[Item number 29](https://site.example/item/29)');
    expect(out).not.toContain('Legal');
  });

  test('a short article in a page with no hints keeps the article, not the teasers', () => {
    const teaser = (i: number) => `<div class="c${i}"><a href="/s/${i}"><b>Other story ${i}</b></a><div>Teaser for another story on this site, number ${i}.</div></div>`;
    const html = `<body><div class="a1"><div class="a2"><h1>Main story</h1><div class="a3"><p>The only paragraph of this short story says, in plain words, what happened today in town, and why it matters to readers.</p></div></div>
      <div class="a4">${Array.from({ length: 8 }, (_, i) => teaser(i)).join('')}</div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('# Main story');
    expect(out).toContain('what happened today in town');
    expect(out).not.toContain('Other story 3');
  });

  test('inline promos inside the article body are dropped, linked sentences are kept', () => {
    const para = (n: number) => `<p>Paragraph ${n} of the story, with enough words and commas, to be scored as a real paragraph of text.</p>`;
    const html = `<body><article><h1>Story</h1>${para(1)}<p><strong>Read more:</strong> <a href="/other">Another story about something else</a></p>${para(2)}
      <p>Related: <a href="/r">A related story</a></p><p>See <a href="/x">this report</a> for the details of the plan and its budget over ten years.</p></article></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Paragraph 2 of the story');
    expect(out).toContain('See [this report](https://site.example/x) for the details');
    expect(out).not.toContain('Another story');
    expect(out).not.toContain('A related story');
  });

  test('a JSON-LD articleBody picks the container that matches it over a longer unrelated block', () => {
    const story = [
      'The harbour authority confirmed on Monday that the old swing bridge will close for repairs in April.',
      'Engineers found corrosion in two of the main bearings during an inspection last autumn, officials said.',
      'Pedestrians will be able to use a temporary footbridge, but cars and lorries face a detour of about two miles.',
      'The work is expected to take eleven weeks and to cost around four million pounds, most of it from the port budget.',
      'Local businesses on the quay said they were worried about losing trade during the busiest weeks before the summer.',
    ];
    const about = Array.from({ length: 8 }, (_, i) => `<div class="b${i}">Our cooperative was founded by a group of neighbours, shopkeepers, and teachers in ${1990 + i}, and it has grown every year since, with new members, new projects, and new volunteers joining us from all over the district.</div>`).join('');
    const ld = JSON.stringify({ '@context': 'https://schema.example', '@graph': [{ '@type': 'WebPage' }, { '@type': 'NewsArticle', headline: 'Bridge to close', articleBody: story.join(' ') }] });
    const html = `<html><head><title>Bridge to close</title><script type="application/ld+json">${ld}</script></head><body>
      <div class="x1"><h1>Bridge to close</h1><div class="x2">${story.map((p) => `<div>${p}</div>`).join('')}</div></div><div class="x3">${about}</div></body></html>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('# Bridge to close');
    expect(out).toContain('corrosion in two of the main bearings');
    expect(out).not.toContain('Our cooperative was founded');
    const withoutLd = pageToMarkdown(html.replace(/<script[\s\S]*?<\/script>/, ''));
    expect(withoutLd).toContain('Our cooperative was founded');
  });
});
