/**
 * onlyMainContent on page types other than articles (issue 23): forums served in `noscript`, pages
 * built of many sections (service pages, page builders), product grids with buttons, and the main
 * landmark. Synthetic pages, each reduced to the structure the rule is about.
 */
import { describe, expect, test } from 'bun:test';
import { pageToMarkdown } from './helpers.ts';
import { classifyName } from '../../parsers/html/hints.ts';
import { bodyOf, parseHtml, serializeHtml } from '../../parsers/html/dom.ts';
import { dropSiblingCopies } from '../../parsers/html/region-clean.ts';
import { safeCleanup } from '../../parsers/html/main-content.ts';

const prose = (topic: string, n: number) =>
  `<p>${topic} paragraph ${n} explains, in plain words and with some detail, what the team does for its clients and why it matters to them.</p>`;
const nav = `<nav><ul>${Array.from({ length: 6 }, (_, i) => `<li><a href="/m${i}">Menu ${i}</a></li>`).join('')}</ul></nav>`;

describe('onlyMainContent beyond articles', () => {
  test('a forum thread served inside noscript (the scripted shell shows nothing) is the content', () => {
    const post = (i: number) => `<div class="topic-post"><span class="creator">user${i}</span><div class="post"><p>Reply ${i}: I had the same problem after the update, and restarting the service fixed it for me, twice.</p></div></div>`;
    const html = `<body><div id="app">Loading…</div><noscript><header><a href="/">Forum</a></header><div id="main-outlet" role="main"><h1>Update broke my setup</h1>${Array.from({ length: 5 }, (_, i) => post(i)).join('')}</div></noscript></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reply 0: I had the same problem');
    expect(out).toContain('Reply 4: I had the same problem');
  });

  test('a thread whose every post is comment-named keeps its posts; an article keeps its comments out', () => {
    const reply = (i: number) => `<div class="ipsComment comment-${1000 + i}_wrap"><p>Post ${i}: the fan curve in the BIOS was the culprit, and setting it to silent mode, then rebooting, made it quiet again.</p></div>`;
    const thread = `<body><header>${nav}</header><div class="topic"><h1>Loud fans after update</h1>${Array.from({ length: 6 }, (_, i) => reply(i)).join('')}</div></body>`;
    const out = pageToMarkdown(thread);
    expect(out).toContain('Post 0: the fan curve');
    expect(out).toContain('Post 5: the fan curve');
    const article = `<body><div class="story"><h1>Fans</h1>${Array.from({ length: 12 }, (_, i) => prose('Story', i)).join('')}</div><div class="comments">${Array.from({ length: 6 }, (_, i) => reply(i)).join('')}</div></body>`;
    const out2 = pageToMarkdown(article);
    expect(out2).toContain('Story paragraph 11');
    expect(out2).not.toContain('Post 3: the fan curve');
  });

  test('a page whose every block is chrome-like does not come out empty', () => {
    const html = `<body><nav><a href="/a">Alpha section of the site</a> <a href="/b">Beta section of the site</a></nav><aside><p>Short text of the page, in a single line.</p></aside></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Short text of the page');
  });

  test('markup with two bodies: the one holding the text is the page', () => {
    const html = `<html><head><title>T</title></head><body><script>var x = 1;</script></body><div><body><article><h1>Protocol</h1>${prose('Protocol', 1)}${prose('Protocol', 2)}</article></body></div></html>`;
    expect(pageToMarkdown(html)).toContain('Protocol paragraph 2');
  });

  test('a post-body name that recurs on every post names posts: the thread is kept whole', () => {
    const post = (i: number, n: number) => `<div class="post-layout"><div class="votes">${i}</div><div class="postcell"><div class="s-prose js-post-body">${Array.from({ length: n }, (_, j) => prose(`Answer ${i}`, j)).join('')}</div></div></div>`;
    const html = `<body><header>${nav}</header><div id="content"><div id="mainbar"><h1>Why is RAID not a backup?</h1><div class="question">${post(0, 3)}</div><div id="answers"><h2>3 Answers</h2>${post(1, 2)}${post(2, 2)}${post(3, 1)}</div></div></div></body>`;
    const out = pageToMarkdown(html);
    for (const s of ['Answer 0 paragraph 2', 'Answer 1 paragraph 1', 'Answer 3 paragraph 0']) expect(out).toContain(s);
  });

  test('noscript stays dropped when the page shows its content without scripts', () => {
    const html = `<body><article><h1>Title</h1>${prose('Story', 1)}${prose('Story', 2)}</article><noscript><p>Please enable JavaScript to view the comments powered by our partner.</p></noscript></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Story paragraph 2');
    expect(out).not.toContain('enable JavaScript');
  });

  test('a service page keeps every section of its main landmark, not only the best one', () => {
    const intro = `<div class="intro"><div class="container">${[1, 2, 3, 4].map((i) => prose('Consulting', i)).join('')}</div></div>`;
    const features = `<section class="features"><div class="inner"><h2>Training</h2><ul><li>Training benefit one, described in a sentence.</li><li>Training benefit two, described in a sentence.</li></ul></div></section>`;
    const pricing = `<div class="pricing"><div class="inner"><h2>Audits</h2><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Basic audit</td><td>€900</td></tr></table></div></div>`;
    // Real pages nest deeply: the landmark sits beyond the levels paragraph scores reach.
    const html = `<body><header>${nav}</header><main><div class="l1"><div class="l2"><h1>Our services</h1><div class="l3">${intro}</div>${features}${pricing}</div></div></main><footer>© Example Ltd</footer></body>`;
    const out = pageToMarkdown(html);
    for (const s of ['# Our services', 'Consulting paragraph 4', '## Training', 'Training benefit two', '## Audits', '| Basic audit | €900 |']) expect(out).toContain(s);
    expect(out).not.toContain('Menu 3');
    expect(out).not.toContain('Example Ltd');
  });

  test('without a main landmark, the region widens to the sections of prose around it', () => {
    const block = (cls: string, name: string, n: number) => `<div class="${cls}"><div class="inner"><h3>${name}</h3>${Array.from({ length: n }, (_, i) => prose(name, i)).join('')}</div></div>`;
    const html = `<body><div class="top">${nav}</div><div class="page">${block('a', 'Pricing', 5)}<div class="b"><div class="x">${block('c', 'Features', 2)}</div></div>${block('d', 'Integrations', 2)}</div><div class="bottom"><a href="/a">About</a> <a href="/b">Blog</a> <a href="/c">Careers</a></div></body>`;
    const out = pageToMarkdown(html);
    for (const s of ['Pricing paragraph 4', '### Features', 'Features paragraph 1', 'Integrations paragraph 0']) expect(out).toContain(s);
    expect(out).not.toContain('Menu 2');
    expect(out).not.toContain('Careers');
  });

  test('sections that sit directly in the body widen the region too', () => {
    const short = (name: string, n: number) => Array.from({ length: n }, (_, i) => `<div>${name} point ${i} is stated here in one plain short line</div>`).join('');
    const sec = (name: string, body: string) => `<section class="s-${name.toLowerCase()}"><h2>${name}</h2>${body}</section>`;
    const analytics = sec('Analytics', [0, 1, 2, 3, 4].map((i) => prose('Analytics', i)).join(''));
    const html = `<body><header>${nav}</header>${analytics}${sec('Dashboards', short('Dashboards', 3))}<div class="promo-strip">Free shipping today</div>${sec('Governance', short('Governance', 3))}<footer>© Example Ltd</footer></body>`;
    const out = pageToMarkdown(html);
    for (const s of ['Analytics paragraph 4', '## Dashboards', 'Dashboards point 2', 'Governance point 0']) expect(out).toContain(s);
    expect(out).not.toContain('Free shipping');
    expect(out).not.toContain('Example Ltd');
  });

  test('a container the site names as the article body does not widen to what follows it', () => {
    const appeal = Array.from({ length: 3 }, (_, i) => `<p>Appeal ${i}: readers like you keep this site running, and every contribution helps us report for years.</p>`).join('');
    const html = `<body><div class="page"><div class="article-body">${Array.from({ length: 6 }, (_, i) => prose('Story', i)).join('')}</div><div class="slot">${appeal}</div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Story paragraph 5');
    expect(out).not.toContain('Appeal 1');
  });

  test('boilerplate-sounding class words that name most of the page are its layout', () => {
    // A page builder wraps every block in the same "promo" component: those blocks are the page.
    const block = (i: number) => `<div class="builder-promo-block">${prose(`Block ${i}`, i)}</div>`;
    const html = `<body><header>${nav}</header><div class="page">${Array.from({ length: 6 }, (_, i) => block(i)).join('')}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Block 0 paragraph 0');
    expect(out).toContain('Block 5 paragraph 5');
  });

  test('a listing keeps its search results and the linked item cards of its grid', () => {
    const item = (i: number) => `<li class="product"><a href="/p/${i}">Trail headlamp ${i}</a><p>$${20 + i}.95, 300 lumens, 80 g, rechargeable, with a red light mode for reading maps at night.</p></li>`;
    const html = `<body><header>${nav}</header><div class="page"><h1>Headlamps</h1><div id="search-results"><ul class="grid">${Array.from({ length: 8 }, (_, i) => item(i)).join('')}</ul></div><form class="search-form"><button>Search</button></form></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('# Headlamps');
    expect(out).not.toContain('Menu 2');
    expect(out).toContain('Trail headlamp 0');
    expect(out).toContain('$27.95');
  });

  test('class words: search is chrome as the head word only; builder namespaces are not junk', () => {
    expect(classifyName('search-box')).toBe('chrome');
    expect(classifyName('searchform')).toBe('chrome');
    expect(classifyName('search-results')).toBeUndefined();
    expect(classifyName('elementor-widget-text-editor')).toBe('positive');
    expect(classifyName('cmp-text')).toBe('positive');
    expect(classifyName('cookie-banner')).toBe('junk');
  });

  test('a head-only chrome word followed by a list word names results: search-grid is content, search-box is not', () => {
    expect(classifyName('c-search-grid')).toBeUndefined();
    expect(classifyName('search-list')).toBeUndefined();
    expect(classifyName('search-box')).toBe('chrome');
    expect(classifyName('search-wrapper')).toBe('chrome');
    const card = (i: number) => `<li class="c-search-grid__item"><a href="/dress/${i}">Linen midi dress ${i}</a><span>$${60 + i}</span></li>`;
    const html = `<body>${nav}<main><h1>Casual dresses</h1><ul class="c-search-grid">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul><div class="c-search-box"><a href="/s">Search</a></div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Linen midi dress 11');
    expect(out).toContain('$71');
  });

  test("a hero section (a category's title and intro above its grid) is the page's own opening, not chrome", () => {
    const card = (i: number) => `<div class="card"><h3><a href="/lamp/${i}">Brass desk lamp ${i}</a></h3><p>Hand-finished brass, linen shade, ${30 + i} cm tall.</p><span>€${90 + i}</span></div>`;
    const html = `<body><header>${nav}</header><main><div class="collection-hero"><h1>Desk lamps</h1><p>Warm light for long evenings: every lamp is turned and finished by hand in our workshop.</p></div><div class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Warm light for long evenings');
    expect(out).toContain('Brass desk lamp 7');
  });

  test('a price tag (price-tag, on-sale-tag) is the price, not a tag list; post tags stay meta', () => {
    expect(classifyName('price-tag')).toBeUndefined();
    expect(classifyName('on-sale-tag')).toBeUndefined();
    expect(classifyName('SaleTagBlockCtn')).toBeUndefined();
    expect(classifyName('post-tag')).toBe('meta');
    expect(classifyName('tag-list')).toBe('meta');
    const card = (i: number) => `<div class="card"><h3><a href="/bike/${i}">Touring bike ${i}</a></h3><p>Steel frame, 18 gears, hub dynamo and rack included.</p><div class="on-sale-tag">Save $${100 + i}</div></div>`;
    const html = `<body><header>${nav}</header><main><h1>Bikes</h1><div class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</div></main></body>`;
    expect(pageToMarkdown(html)).toContain('Save $105');
  });

  test('product cards with a button are not forms', () => {
    const card = (i: number) => `<div class="card"><h3>Walnut desk model ${i}</h3><p>Solid walnut top, steel frame, ${100 + i} cm wide; made to order in four weeks.</p><span>€${400 + i}</span><button>Add to cart</button></div>`;
    const html = `<body><header>${nav}</header><div class="page"><h1>Desks</h1><div class="about">${prose('Desks', 1)}${prose('Desks', 2)}</div><div class="grid">${Array.from({ length: 4 }, (_, i) => card(i)).join('')}</div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Walnut desk model 0');
    expect(out).toContain('steel frame, 103 cm wide');
    expect(out).toContain('€403');
  });

  test('a grid of items wrapped whole in one link each (a model and its specs) is kept; columns of many links are not', () => {
    const item = (i: number) => `<div class="item"><a href="/buy/laptop-${i}"><div class="details">Laptop ${i}, 14-inch, 8-core CPU, ${8 + i}GB memory, 512GB storage</div></a></div>`;
    const col = (i: number) => `<div class="col"><div class="links"><a href="/help/${i}/a">Shipping and delivery times</a> <a href="/help/${i}/b">Returns and refunds policy</a> <a href="/help/${i}/c">Order tracking service</a></div></div>`;
    const html = `<body>${nav}<main><h1>Buy a laptop</h1>${prose('Laptop', 1)}${prose('Laptop', 2)}<div class="choices">${Array.from({ length: 6 }, (_, i) => item(i)).join('')}</div><div class="more">${Array.from({ length: 3 }, (_, i) => col(i)).join('')}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Laptop paragraph 2');
    expect(out).toContain('Laptop 0, 14-inch, 8-core CPU, 8GB memory');
    expect(out).toContain('Laptop 5, 14-inch');
    expect(out).not.toContain('Returns and refunds policy');
  });

  test('a short intro above a list of link rows is not the content on its own: the list is kept', () => {
    const row = (i: number) => `<tr><td>${i}.</td><td><a href="/job/${i}">Company ${i} is hiring engineers for its platform team</a> (<a href="/from/${i}">company${i}.example</a>)</td></tr><tr><td></td><td><span>${i + 1} days ago</span></td></tr>`;
    const html = `<body><table><tr><td>${nav}</td></tr><tr><td><p>These are the open positions at the companies we fund. See more on the jobs page.</p></td></tr>
      <tr><td><table>${Array.from({ length: 20 }, (_, i) => row(i)).join('')}</table></td></tr><tr><td><a href="/about">About</a> <a href="/legal">Legal</a></td></tr></table></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('These are the open positions');
    expect(out).toContain('Company 0 is hiring engineers');
    expect(out).toContain('Company 19 is hiring engineers');
    expect(out).not.toContain('Menu 3');
  });

  test('a stray <![CDATA[ in the body ends at the next > as in a browser, not at a ]]> that never comes', () => {
    const html = `<body class="forum">\n<![CDATA[\n<div id="top"></div><header>${nav}</header><div class="thread"><h1>Which card to buy</h1>${prose('Post', 1)}${prose('Post', 2)}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Post paragraph 2 explains');
    const svg = pageToMarkdown(`<body><svg><style><![CDATA[ .a{fill:red} ]]></style></svg>${prose('Svg', 1)}</body>`);
    expect(svg).toContain('Svg paragraph 1');
  });

  test('a block labelled by a recommendation heading (You may also like) is not content; an h1 so named is', () => {
    const card = (i: number) => `<li><p>Linen shirt number ${i}, cut loose, in washed cotton, with two pockets.</p><p>$${40 + i}.00</p></li>`;
    const html = `<body><header>${nav}</header><main><h1>Hemp dress</h1>${Array.from({ length: 5 }, (_, i) => prose('Dress', i)).join('')}
      <div class="block"><div class="hdr"><h2>You may also like</h2></div><ul>${Array.from({ length: 3 }, (_, i) => card(i)).join('')}</ul></div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Dress paragraph 2');
    expect(out).not.toContain('Linen shirt number 2');
    const titled = pageToMarkdown(`<body><main><div><h1>Related products</h1>${prose('Category', 1)}</div><ul>${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</ul></main></body>`);
    expect(titled).toContain('Category paragraph 1');
  });

  test('a block under "Related <anything>" (Related insights, Related offerings) is not content; "Related to ..." is', () => {
    const card = (i: number) => `<div class="tile"><h3>Outlook report ${i}</h3><p>Trends redefining the function this year, from new tools to skills-based hiring, in ${i} short chapters.</p></div>`;
    const page = (heading: string) => `<body><header>${nav}</header><main><h1>Advisory</h1>${Array.from({ length: 12 }, (_, i) => prose('Advisory', i)).join('')}
      <section class="band"><h2>${heading}</h2><div class="tiles">${Array.from({ length: 3 }, (_, i) => card(i)).join('')}</div></section></main></body>`;
    const out = pageToMarkdown(page('Related insights'));
    expect(out).toContain('Advisory paragraph 11');
    expect(out).not.toContain('Outlook report 1');
    expect(pageToMarkdown(page('Related to payroll'))).toContain('Outlook report 1');
  });

  test('a consent dialog holding most of the page text is still not content', () => {
    const purpose = (i: number) => `<section><h4>Purpose ${i}</h4><p>Information about your activity on this service, such as forms you submit and content you look at, can be stored and combined with other information to build a profile ${i}.</p></section>`;
    const html = `<body><div class="thread"><h1>Showcase discussion</h1><p>First post: the stream starts in one hour, and the video goes up on the channel right after it ends.</p><p>Second post: I am ready.</p></div>
      <div id="consent-sdk"><div role="dialog" aria-modal="true">${Array.from({ length: 8 }, (_, i) => purpose(i)).join('')}</div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('First post: the stream starts');
    expect(out).not.toContain('build a profile 3');
  });

  test('closed tab and accordion panels are content; a collapsed menu and a popover are not', () => {
    const html = `<body><header><button aria-controls="menu">Menu</button><div id="menu" hidden><ul>${Array.from({ length: 6 }, (_, i) => `<li><a href="/c${i}">Category ${i}</a></li>`).join('')}</ul></div></header>
      <main><h1>Walnut desk</h1>${prose('Desk', 1)}
      <div role="tablist"><button role="tab" aria-controls="p1">Description</button><button role="tab" aria-controls="p2">Specifications</button></div>
      <div role="tabpanel" id="p1"><p>The top is solid walnut, oiled by hand, and the frame is powder-coated steel that takes 150 kg.</p></div>
      <div role="tabpanel" id="p2" hidden><table><tr><th>Width</th><td>160 cm</td></tr><tr><th>Depth</th><td>80 cm</td></tr></table></div>
      <h2>Questions</h2><button aria-expanded="false" aria-controls="a1">Can I return it?</button><div id="a1" style="display:none"><p>Yes, within 30 days, in its original packing, and we collect it for free.</p></div></main>
      <div popover id="push"><p>Allow notifications: tap the lock icon next to the address bar, then Permissions.</p></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('solid walnut');
    expect(out).toContain('160 cm');
    expect(out).toContain('Yes, within 30 days');
    expect(out).not.toContain('Category 3');
    expect(out).not.toContain('Allow notifications');
  });

  test('a tab list that wraps its panels (an accordion) is content; a bare tab bar is chrome', () => {
    const item = (i: number) => `<h3 role="tab" aria-controls="q${i}">Question ${i}</h3><div role="tabpanel" id="q${i}"><p>Answer ${i}: permits are needed for decks over 30 inches, and the inspection follows within ten working days.</p></div>`;
    const html = `<body><header>${nav}</header><div class="page"><h1>Building department</h1>${Array.from({ length: 6 }, (_, i) => prose('Permits', i)).join('')}
      <div role="tablist">${Array.from({ length: 3 }, (_, i) => item(i)).join('')}</div><div role="tablist"><a href="#a" role="tab">Overview</a><a href="#b" role="tab">Fees</a></div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Permits paragraph 5');
    expect(out).toContain('Answer 2: permits are needed');
    expect(out).not.toContain('Overview');
  });

  test('two chrome words written as one (navheader, footermenu) are chrome; other compounds are not', () => {
    expect(classifyName('navheader')).toBe('chrome');
    expect(classifyName('footermenu')).toBe('chrome');
    expect(classifyName('searchresults')).toBeUndefined();
    expect(classifyName('headline')).toBeUndefined();
    const toc = `<div class="toc"><dl>${Array.from({ length: 8 }, (_, i) => `<dt><a href="/s${i}">${i + 1}. Section ${i}</a></dt>`).join('')}</dl></div>`;
    const html = `<body><div class="navheader"><table><tr><td><a href="/prev">Prev</a></td><td>Part I. Tutorial</td><td><a href="/next">Next</a></td></tr></table></div>
      <div class="chapter"><h2>Chapter 2. The SQL Language</h2>${toc}</div><div class="navfooter"><table><tr><td>1.4. Accessing a Database</td><td><a href="/">Home</a></td></tr></table></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Section 7');
    expect(out).not.toContain('Part I. Tutorial');
    expect(out).not.toContain('Accessing a Database');
  });
  test('images in the main content keep their URL, not their alt (card copies, a figure described); onlyMainContent false keeps alts', () => {
    const card = (i: number) => `<div class="card"><img src="/p${i}.jpg" alt="Oak desk model ${i}"><img src="/p${i}-2x.jpg" alt="Oak desk model ${i}"><a href="/p${i}"><h3>Oak desk model ${i}</h3></a><p>Solid oak, 120 cm wide, with two drawers and a cable tray. Price 4${i}0 EUR.</p></div>`;
    const html = `<body>${nav}<main><h1>Desks</h1><div class="grid">${Array.from({ length: 4 }, (_, i) => card(i)).join('')}</div>
      <figure><img src="/shop.jpg" alt="Workshop floor with planed boards drying on racks"><figcaption>Our workshop in Leeds.</figcaption></figure>${prose('Shop', 1)}${prose('Shop', 2)}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('![](https://site.example/p2.jpg)');
    expect(out.match(/Oak desk model 2/g)?.length).toBe(1);
    expect(out).toContain('![](https://site.example/shop.jpg)');
    expect(out).not.toContain('Workshop floor');
    expect(pageToMarkdown(html, { onlyMainContent: false })).toContain('![Workshop floor with planed boards drying on racks]');
  });
  test("a link that is only a picture keeps the picture's alt as its text, unless the alt says nothing new", () => {
    const card = (i: number) => `<div class="card"><a href="/p${i}"><img src="/p${i}.jpg" alt="Oak desk model ${i}"></a><a href="/p${i}"><h3>Oak desk model ${i}</h3></a><p>Solid oak, 120 cm wide, with two drawers and a cable tray. Price 4${i}0 EUR.</p></div>`;
    const html = `<body>${nav}<main><h1>Desks</h1><div class="grid">${Array.from({ length: 4 }, (_, i) => card(i)).join('')}</div>${prose('Shop', 1)}<p><a href="/tour"><img src="/tour.jpg" alt="Take the virtual tour of our showroom"></a></p>${prose('Shop', 2)}<p><a href="/feed"><img src="/rss.png" alt="rss icon"></a></p></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('[![Take the virtual tour of our showroom](https://site.example/tour.jpg)](https://site.example/tour)');
    expect(out.match(/Oak desk model 2/g)?.length).toBe(1);
    expect(out).not.toContain('rss icon');
  });
  test('a consent dialog does not count in the page text: a short thread of comment-named posts under it is kept', () => {
    const post = (i: number) => `<article class="ipsComment"><aside class="author">user${i}</aside><div class="ipsComment_content comment-${500 + i}_wrap"><p>Post ${i}: the two holes on the back are for the case's own cable clips, as the support answered me.</p></div></article>`;
    const consent = Array.from({ length: 14 }, (_, i) => `<p>Cookie category ${i} stores data on your device so that the site works and remembers your choices.</p>`).join('');
    const html = `<body><header>${nav}</header><main><h1>What are these two holes for?</h1>${post(0)}${post(1)}${post(2)}</main><div role="dialog"><h2>Privacy centre</h2>${consent}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Post 0: the two holes');
    expect(out).toContain('Post 2: the two holes');
    expect(out).not.toContain('Cookie category');
  });
  test("forum posts keep their text, not the poster's profile box or signature", () => {
    const post = (i: number) => `<div class="post"><div class="postbody"><h3>Re: Season thread</h3><div class="content">Reply ${i}: the new league format means more matches, and the smaller clubs finally get a fair chance to play in Europe.</div>
      <div class="signature">Harbour Rovers fan since 1998</div></div><dl class="postprofile"><dt>poster${i}</dt><dd>Posts: 40${i}</dd><dd>Founded: May 2019</dd></dl></div>`;
    const html = `<body><header>${nav}</header><div id="page-body"><h1>Season thread</h1>${Array.from({ length: 5 }, (_, i) => post(i)).join('')}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reply 0: the new league format');
    expect(out).toContain('Reply 4: the new league format');
    expect(out).not.toContain('Harbour Rovers');
    expect(out).not.toContain('Founded: May 2019');
  });
  test("a poster's pane named by `user` as its head word (`message-user`) goes; `user-review` stays content", () => {
    const post = (i: number) => `<article class="message"><div class="message-cell message-cell--user"><section class="message-user"><h4 class="message-name"><a href="/members/m${i}">member${i}</a></h4>
      <div class="message-userExtras"><dl class="pairs"><dt>Joined</dt><dd>Mar 3, 2019</dd></dl><dl class="pairs"><dt>Messages</dt><dd>1,20${i}</dd></dl></div></section></div>
      <div class="message-cell message-cell--main"><div class="bbWrapper">Reply ${i}: the valve was stuck, and after cleaning the filter and bleeding the radiators the heating came back.</div></div></article>`;
    const html = `<body><header>${nav}</header><div class="block-body"><h1>Heating stopped</h1>${Array.from({ length: 5 }, (_, i) => post(i)).join('')}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reply 0: the valve was stuck');
    expect(out).toContain('Reply 4: the valve was stuck');
    expect(out).not.toContain('Joined');
    expect(out).not.toContain('1,204');
    expect(classifyName('message-user')).toBe('meta');
    expect(classifyName('user-review')).toBeUndefined();
    expect(classifyName('user-reviews-container')).toBeUndefined();
    // An id is one element's name: a glossary term's generated id does not make it a poster's pane.
    const term = (t: string) => `<dt id="GLOSSARY-${t.toUpperCase()}">${t}</dt><dd><p>The ${t.toLowerCase()} entry of the glossary, defined in a full sentence for the reader of the manual.</p></dd>`;
    const glossary = `<body><div class="sect1"><h1>Glossary</h1><dl>${['Role', 'User', 'Schema'].map(term).join('')}</dl></div></body>`;
    expect(pageToMarkdown(glossary)).toMatch(/^User$/m);
  });

  test("a classic board's per-post subject lines (Re: <thread title>) go; other headings in posts stay", () => {
    const post = (i: number) => `<div class="post"><div class="postbody"><h3><a href="#p${i}">${i ? 'Re: ' : ''}Fan noise after the BIOS update</a></h3>
      <div class="content">Answer ${i}: set the fan curve back to silent in the firmware and the noise goes, at least it did on my board.${prose(`Answer ${i}`, 1)}${prose(`Answer ${i}`, 2)}${i === 2 ? '<h4>Steps that worked</h4><p>Reset the profile first.</p>' : ''}</div></div></div>`;
    const html = `<html><head><title>Fan noise after the BIOS update - Hardware Board</title></head><body><header>${nav}</header><div id="page-body"><h2><a href="/t1">Fan noise after the BIOS update</a></h2>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}</div></body></html>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Answer 0: set the fan curve');
    expect(out).toContain('Answer 3: set the fan curve');
    expect(out).not.toContain('Re: Fan noise');
    expect(out.match(/Fan noise after the BIOS update/g)?.length).toBe(1);
    expect(out).toContain('Steps that worked');
  });

  test('a board writing every post as a quote: a reply\'s quote (a quote-named div) of an earlier post goes, the reply stays', () => {
    const first = 'What do you look at first when you choose a hosting company for a small shop, the price or the support?';
    const replies = [
      'Reply 1: support matters more to me than the price, since a slow answer during an outage costs far more.',
      'Reply 2: uptime history, then backups; a cheap plan without daily snapshots is no bargain at all.',
      'Reply 3: the location of the data centre, because most of my customers live on the same continent.',
      'Reply 4: I read the terms on resource limits first, as shared plans often throttle busy shops.',
    ];
    const post = (i: number) => `<li class="postbit"><div class="postdetails"><blockquote class="postcontent restore">${i ? `<div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container">${first}</div></div></div>` : ''}${i ? replies[i - 1] : first}</blockquote></div></li>`;
    const html = `<body><header>${nav}</header><ol id="posts"><h1>Choosing a host</h1>${Array.from({ length: 5 }, (_, i) => post(i)).join('')}</ol></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reply 4: I read the terms');
    expect(out.match(/What do you look at first/g)?.length).toBe(1);
  });

  test('a short post written without paragraphs keeps its text next to its two screenshots', () => {
    const shot = (n: number) => `<img src="/attachments/shot-${n}.png" alt="">`;
    const post = (i: number) => `<article class="message"><div class="bbWrapper">${i === 0 ? `Messages in iCloud is off, yet the storage page still lists sixteen gigabytes for Messages. Why is that?<br>${shot(1)}${shot(2)}` : `Reply ${i}: open the Messages entry in the storage list and choose Disable and Delete, then wait a day for the figure to update.`}</div></article>`;
    const html = `<body><header>${nav}</header><div class="thread"><h1>iCloud storage</h1>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('yet the storage page still lists');
    expect(out).toContain('Reply 3: open the Messages entry');
  });

  test("a thread's short second post, named like the long first one (comment), is not dropped for its name", () => {
    const post = (body: string) => `<article class="cPost"><aside class="author"><a href="/u/1">member</a></aside><div class="ipsComment_content"><p>${body}</p></div></article>`;
    const first = `${prose('Question', 1)}${prose('Question', 2)}${prose('Question', 3)}`.replace(/<\/?p>/g, ' ');
    const html = `<body><header>${nav}</header><main><h1>New case: what are the two ports for?</h1><div id="comments"><form>${post(first)}${post('I heard the rear one is for the external link hub that the maker plans to sell next year. The port under the fans is for the lighting strip that comes with the bigger model. Both are covered by a plate on the cheaper version of the case.')}</form></div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Question paragraph 3');
    expect(out).toContain('I heard the rear one is for the external link hub');
  });

  test('an account prompt closing a thread goes; a prerequisite naming a sign-up page stays', () => {
    const post = (i: number) => `<div class="post"><p>Reply ${i}: I moved the payment module to the new hook, cleared the cache twice, and the checkout worked again on both shops.</p><p>You need <a href="https://shop.example/register/">a merchant account</a> there (${i}).</p></div>`;
    const prompt = `<div class="prompt"><h2>Create an account or sign in to comment</h2><p>You need to be a member in order to leave a comment</p><div class="box"><div class="grid"><div class="half"><h2>Create an account</h2><p>Sign up for a new account in our community. It's easy!</p><a href="https://forum.example/register/">Register a new account</a></div><div class="half"><h2>Sign in</h2><p>Already have an account? Sign in here.</p><a href="https://forum.example/login/?ref=abc">Sign In Now</a></div></div></div></div>`;
    const html = `<body><header>${nav}</header><div class="topic"><h1>Payment module broke after update</h1>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}${prompt}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reply 3: I moved the payment module');
    expect(out).toContain('You need [a merchant account]');
    expect(out).not.toContain('Create an account');
    expect(out).not.toContain('Sign In Now');
  });

  test('a poster pane repeated beside every post keeps only the name; a table head beside its body stays', () => {
    const post = (i: number) => `<div class="entry"><div class="side"><dl><dt><strong>poster${i}</strong></dt><dd>Member</dd><dd>Registered: 2020-01-0${i + 1}</dd><dd>Posts: ${100 + i}</dd></dl></div>
      <div class="main"><p>Reply ${i}: I rebuilt the initramfs after the kernel update, regenerated the boot entries, and the machine started normally again.</p></div></div>`;
    const table = (i: number) => `<table class="attrs"><thead><tr><th>Attribute</th><th>Type</th><th>Values</th></tr></thead><tbody><tr><td>field${i}</td><td>string</td><td>any text of up to eighty characters, trimmed at both ends</td></tr></tbody></table>`;
    const html = `<body><header>${nav}</header><div class="topic"><h1>Boot fails after update</h1>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}${Array.from({ length: 3 }, (_, i) => table(i)).join('')}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('poster0');
    expect(out).toContain('poster3');
    expect(out).toContain('Reply 3: I rebuilt the initramfs');
    expect(out).not.toContain('Registered:');
    expect(out).not.toContain('Posts: 10');
    expect(out).toContain('Values');
    // A pricing card's head (plan, price, period) beside its feature list has no profile line: it stays.
    const plan = (i: number) => `<div class="plan"><div class="plan-head"><h3>Plan ${i}</h3><span>$${10 * (i + 1)}</span><span>per month</span></div><ul><li>Up to ${i + 2} projects with unlimited collaborators</li><li>Daily backups kept for thirty days</li><li>Email support within one working day</li></ul></div>`;
    const pricing = pageToMarkdown(`<body><header>${nav}</header><main><h1>Pricing</h1>${prose('Pricing', 1)}<div class="plans">${Array.from({ length: 3 }, (_, i) => plan(i)).join('')}</div>${prose('Pricing', 2)}</main></body>`);
    expect(pricing).toContain('$30');
    expect(pricing).toContain('per month');
  });

  test("a thread of short posts beside large poster panes is not a fragment: the panes go, the posts stay", () => {
    const pairs = (i: number) => ['Joined', 'Messages', 'Reaction score', 'Points', 'Location', 'Occupation'].map((k, j) => `<dl class="pairs"><dt>${k}</dt><dd>${k === 'Joined' ? 'Mar 3, 2019' : `value ${i}-${j} for this member of the board`}</dd></dl>`).join('');
    const post = (i: number) => `<article class="message"><div class="message-cell message-cell--user"><section class="message-user"><h4 class="message-name"><a href="/members/m${i}">member${i}</a></h4>
      <div class="message-userExtras">${pairs(i)}</div></section></div><div class="message-cell message-cell--main"><div class="bbWrapper">Post ${i}: invited to interview on the 18th.</div></div></article>`;
    const html = `<body><header>${nav}</header><div class="block-body"><h1>Application thread</h1>${Array.from({ length: 5 }, (_, i) => post(i)).join('')}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Post 0: invited to interview');
    expect(out).toContain('Post 4: invited to interview');
    expect(out).not.toContain('Reaction score');
  });

  test('a thin product page gets the JSON-LD product description it does not show; a page showing it gets no copy', () => {
    const desc = 'This hand-thrown stoneware mug holds 350 ml, keeps coffee warm for longer thanks to its thick walls, and is glazed in a matte blue that varies a little from piece to piece. Dishwasher safe &amp; microwave safe.';
    const ld = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Blue mug', description: desc })}</script>`;
    const thin = `<html><head>${ld}</head><body>${nav}<main><h1>Blue mug</h1><p>€24.00</p><button>Add to cart</button></main><footer><a href="/">Home</a></footer></body></html>`;
    const out = pageToMarkdown(thin);
    expect(out).toContain('Blue mug');
    expect(out).toContain('hand-thrown stoneware mug holds 350 ml');
    expect(out).toContain('Dishwasher safe & microwave safe.');
    const shown = `<html><head>${ld}</head><body>${nav}<main><h1>Blue mug</h1><p>${desc}</p></main></body></html>`;
    expect(pageToMarkdown(shown).split('hand-thrown stoneware').length).toBe(2);
    expect(pageToMarkdown(thin, { onlyMainContent: false })).not.toContain('hand-thrown');
  });
  test('a thread declaring its first post as JSON-LD articleBody keeps the replies that follow it', () => {
    const question = 'My heat pump stops every night around two, shows error E4 on the panel, and only restarts after I switch the breaker off and on again. The installer checked the refrigerant pressure and found nothing wrong. Has anyone seen this before, and what fixed it for you in the end? The unit is four years old, it is serviced every spring, and the error never showed up during the day, not even in the coldest weeks of January. The manual only says E4 means a sensor fault, without saying which sensor, and the support line has not called back after two weeks.';
    const ld = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'DiscussionForumPosting', headline: 'Heat pump E4 at night', articleBody: question })}</script>`;
    const reply = (i: number) => `<article class="message"><div class="user">user${i}</div><div class="message-body"><p>Reply ${i}: mine did the same until the defrost sensor was replaced; it read far too cold at night and the controller shut the unit down to protect it.</p></div></article>`;
    const html = `<html><head>${ld}</head><body>${nav}<main><h1>Heat pump E4 at night</h1><article class="message"><div class="user">starter</div><div class="message-body"><p>${question}</p></div></article>${Array.from({ length: 6 }, (_, i) => reply(i)).join('')}</main><footer><a href="/">Home</a></footer></body></html>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('only restarts after I switch the breaker');
    expect(out).toContain('Reply 0: mine did the same');
    expect(out).toContain('Reply 5: mine did the same');
    expect(out).not.toContain('Menu 3');
  });
  test('a reply quoting an earlier post drops the repeated quote; a quote of new text stays', () => {
    const first = 'The pressure relief valve on my boiler drips a little every morning, and the gauge reads almost three bar when the heating runs.';
    const post = (body: string) => `<div class="post"><div class="user">someone</div><div class="body">${body}</div></div>`;
    const html = `<body>${nav}<div class="thread"><h1>Dripping relief valve</h1>${post(`<p>${first}</p>`)}${post(`<blockquote><p>${first}</p><p>Click to expand...</p></blockquote><p>Reply 1: three bar is too high; the expansion vessel has probably lost its air charge, have it checked and topped up.</p>`)}${post(`<blockquote><p>The only cure that lasted was a new vessel, as the plumber in our street always says to everyone who asks him.</p></blockquote><p>Reply 2: that saying is right, in my experience the membrane fails after ten years or so and cannot be repaired.</p>`)}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out.split('relief valve on my boiler drips').length).toBe(2);
    expect(out).not.toContain('Click to expand');
    expect(out).toContain('Reply 1: three bar is too high');
    expect(out).toContain('> The only cure that lasted was a new vessel');
  });
  test('posts named only by a numbered comment id are the thread when they are the page', () => {
    const post = (i: number) => `<div id="comment-${4398500 + i}_wrap"><p>Post ${i}: the forum was slow for weeks, and I saved the threads I care about, just in case it closes for good.</p></div>`;
    const html = `<body><header>${nav}</header><main><div class="topic-feed"><h1>If the forum closes</h1>${Array.from({ length: 6 }, (_, i) => post(i)).join('')}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Post 0: the forum was slow');
    expect(out).toContain('Post 5: the forum was slow');
    expect(out).not.toContain('Menu 3');
  });
  test('a tiny link between the region and the prose around it (a permalink) does not stop the widening', () => {
    const html = `<body>${nav}<div class="page"><div class="item"><div class="text">${Array.from({ length: 6 }, (_, i) => prose('Main', i)).join('')}</div><a href="/p/1">#1</a></div><div class="details"><h2>How it works</h2>${Array.from({ length: 3 }, (_, i) => prose('Detail', i)).join('')}</div></div><footer><a href="/">Home</a></footer></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Main paragraph 5');
    expect(out).toContain('Detail paragraph 2');
    expect(out).not.toContain('Menu 3');
  });
  test('a section repeated away from its first copy (a carousel clone) comes out once; a short repeated note stays', () => {
    const slide = `<div class="slide"><h3>Plan the launch together</h3><p>Boards, docs and timelines in one place, so the whole team sees the same plan, nobody works from an old copy, and every change is visible to the people it affects. Comments, mentions and approvals stay next to the work, and the history shows who changed what and when, long after the launch is over.</p></div>`;
    const note = '<div class="note"><h3>Note</h3><p>This option needs version 9.6 or later.</p></div>';
    const html = `<body>${nav}<main><div class="track"><div class="group">${slide}</div>${prose('Service', 1)}${note}${prose('Service', 2)}<div class="group">${prose('Service', 3)}${note}${slide}</div></div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out.split('Boards, docs and timelines').length).toBe(2);
    expect(out.split('needs version 9.6').length).toBe(3);
    expect(out).toContain('Service paragraph 3');
  });
  test("a linked card image's alt made mostly of the card's words is blanked; an unlinked picture in a story keeps no alt", () => {
    const card = (i: number) => `<div class="card"><a href="/d${i}"><img src="/d${i}.jpg" alt="walnut Desk Model ${i} hover image"></a><h3><a href="/d${i}">Desk Model ${i}</a></h3><p>Standing desk, two motors, from $${500 + i}</p></div>`;
    const html = `<body>${nav}<main><h1>Standing desks</h1><p>All our standing desks ship free and come with a fifteen-year warranty on frame and motors.</p><div class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</div><div class="story"><h2>Why a standing desk</h2>${prose('Desk', 1)}<img src="/team.jpg" alt="the team of the company in the workshop at dusk">${prose('Desk', 2)}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Desk Model 5');
    expect(out).not.toContain('hover image');
    expect(out).toContain('![](https://site.example/team.jpg)');
    expect(out).not.toContain('the team of the company');
  });
  test('a linked alt that is a file name or names an icon, a logo or an arrow is blanked', () => {
    const tile = (i: number) => `<div class="tile"><img src="/i${i}.svg" alt="icon - shield ${i}"><h3>Feature ${i}</h3>${prose('Feature', i)}</div>`;
    const logos = ['Acme logo white', 'home img 1.jpg', 'Blue.png'].map((a, i) => `<a href="/c${i}"><img src="/l${i}.png" alt="${a}"></a>`).join('');
    const html = `<body>${nav}<main><h1>Our platform</h1>${prose('Intro', 1)}${Array.from({ length: 3 }, (_, i) => tile(i)).join('')}<div class="customers"><h2>Trusted by</h2>${logos}</div><img src="/team.jpg" alt="engineers reviewing a network diagram">${prose('Intro', 2)}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Feature paragraph 2');
    expect(out).not.toContain('icon - shield');
    expect(out).not.toContain('logo white');
    expect(out).not.toContain('img 1.jpg');
    expect(out).not.toContain('[Blue.png]');
    expect(out).toContain('[![](https://site.example/l1.png)](https://site.example/c1)');
    expect(out).not.toContain('engineers reviewing');
  });
  test('accordion answers in dropdown- or links-named blocks are content; a links-named list of links is pruned', () => {
    const long = (i: number) => `<p>Answer ${i}: yes, and in more detail, the plan covers accidents, illnesses and routine care, with one yearly deductible, claims paid within days, and any licensed vet you choose.</p><p>Answer ${i}, part two: waiting periods are short, and you can change the plan every year.</p>`;
    const item = (i: number, body: string, cls: string) => `<li class="accordion-item"><h3><button aria-expanded="false">Question ${i}?</button></h3><div class="${cls}">${body}</div></li>`;
    const links = `<div class="quick-links">${Array.from({ length: 6 }, (_, i) => `<a href="/q${i}">Quick link ${i}</a>`).join(' ')}</div>`;
    // Few long answers on a long page: each is a block of prose under a soft name.
    const page = `<body>${nav}<main><h1>Pet insurance</h1>${Array.from({ length: 14 }, (_, i) => prose('Cover', i)).join('')}<ul class="faq">${item(0, long(0), 'accordion-inner text-links')}${item(1, long(1), 'accordion-v2__dropdown')}</ul>${links}</main></body>`;
    const out = pageToMarkdown(page);
    expect(out).toContain('Answer 0: yes');
    expect(out).toContain('Answer 1: yes');
    expect(out).not.toContain('Quick link 3');
    // An FAQ making most of the page, long and short answers under one name: the short ones are
    // answers too (the name counts as the page's layout with its long blocks spared as prose).
    const short = (i: number) => `<p>Answer ${i}: no, there is no fee for that.</p>`;
    const faq = Array.from({ length: 8 }, (_, i) => item(i, i % 2 ? long(i) : short(i), 'accordion-item__dropdown')).join('');
    const out2 = pageToMarkdown(`<body>${nav}<main><h1>Programme FAQ</h1>${prose('Intro', 1)}${prose('Intro', 2)}<ul class="faq">${faq}</ul></main></body>`);
    expect(out2).toContain('Answer 1: yes');
    expect(out2).toContain('Answer 0: no, there is no fee');
    expect(out2).toContain('Answer 6: no, there is no fee');
  });
  test('short headed sections named by the generic word meta are kept; a user-meta box is not', () => {
    const section = (i: number) => `<section class="x-meta-block-section"><h3>Plan ${i}</h3><p>Stream live TV.</p></section>`;
    const user = (i: number) => `<div class="message-user-meta"><h4>member${i}</h4><span>Joined 2019</span></div>`;
    const html = `<body>${nav}<main><h1>Entertainment</h1>${prose('Plans', 1)}${prose('Plans', 2)}${Array.from({ length: 3 }, (_, i) => section(i)).join('')}${prose('Plans', 3)}${user(1)}${prose('Plans', 4)}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Plan 0');
    expect(out).toContain('Plan 2');
    expect(out).not.toContain('member1');
  });
  test('a promo- or cta-named section of prose is content; a promo teaser of links is pruned', () => {
    const para = (i: number, n: number) => `<p>Service line ${i}, part ${n}, brings engineering-led design, deep industry knowledge, data-driven insight and, above all, people who listen, plan, build and measure, to the platforms at the heart of your business.</p>`;
    const section = (i: number) => `<div class="cmp-promo__content"><h3>Service line ${i}</h3>${para(i, 1)}${para(i, 2)}${para(i, 3)}</div>`;
    const teaser = '<div class="promo-banner"><a href="/offer">Spring offer</a> <a href="/offer">Save on every plan</a> <a href="/offer">Shop now</a></div>';
    const html = `<body>${nav}<div class="page"><h1>Our services</h1>${Array.from({ length: 16 }, (_, i) => prose('Service', i)).join('')}<div class="grid">${section(2)}</div>${teaser}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Service paragraph 7');
    expect(out).toContain('Service line 2, part 3, brings engineering-led design');
    expect(out).not.toContain('Spring offer');
    expect(classifyName('cmp-promo__content')).toBe('soft');
    expect(classifyName('promo-share-bar')).toBe('junk');
  });
  test('a call-to-action banner (cta and banner in one name) of prose is content; a short one is pruned', () => {
    const para = (n: number) => `<p>Enterprises move to platforms that need no procuring, installing, patching or backing up, part ${n}, with minimal upfront cost and the latest features.</p>`;
    const banner = `<div class="cta cmp-cta__banner--bg-teal"><h3>Platforms that support better intelligence</h3>${para(1)}${para(2)}</div>`;
    const short = '<div class="cmp-cta__banner"><h3>Talk to us</h3><p>Get in touch today.</p></div>';
    const html = `<body>${nav}<div class="page"><h1>Data platforms</h1>${Array.from({ length: 10 }, (_, i) => prose('Platform', i)).join('')}${banner}${prose('Platform', 10)}${short}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Platform paragraph 10');
    expect(out).toContain('part 2, with minimal upfront cost');
    expect(out).not.toContain('Get in touch today');
    expect(classifyName('cmp-cta__banner')).toBe('soft');
    expect(classifyName('promotional-banner')).toBe('soft');
    expect(classifyName('hero-banner')).toBe('chrome');
  });
  test('a cta-named section of a heading and one line is content; a promo teaser so built is pruned', () => {
    const cta = '<section class="module module-cta"><h3>Ready to modernize?</h3><p>Our team maps your data estate in two weeks and plans the move with you, system by system.</p></section>';
    const promo = '<div class="promo-tile"><h3>Spring webinar</h3><p>Join the free session on the new reporting features next Tuesday at noon, online or in person.</p></div>';
    const html = `<body>${nav}<div class="page"><h1>Data modernization</h1>${Array.from({ length: 10 }, (_, i) => prose('Modernization', i)).join('')}${cta}${prose('Modernization', 10)}${promo}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Modernization paragraph 10');
    expect(out).toContain('Our team maps your data estate');
    expect(out).not.toContain('Join the free session');
  });
  test('a cta-named section of a heading and a short line (40-80 characters) is content; a bare call to act is pruned', () => {
    const cta = '<div class="cta-block"><h3>Plan your migration</h3><p>Book a two-week assessment with our engineers.</p></div>';
    const bare = '<div class="cta-strip"><h3>Talk to us</h3><p>Get in touch today.</p></div>';
    const html = `<body>${nav}<div class="page"><h1>Cloud migration</h1>${Array.from({ length: 10 }, (_, i) => prose('Migration', i)).join('')}${cta}${prose('Migration', 10)}${bare}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Migration paragraph 10');
    expect(out).toContain('Book a two-week assessment');
    expect(out).not.toContain('Get in touch today');
  });
  test('a section rendered once per screen size (copies hidden by CSS) comes out once', () => {
    const hero = '<h2>Plan together</h2><p>Boards, docs and timelines in one place, so the whole team sees the same plan and nobody works from an old copy.</p>';
    const html = `<body>${nav}<main><div class="hero"><div class="variant-desktop">${hero}</div><div class="variant-tablet">${hero}</div><div class="variant-phone">${hero}</div></div>${prose('Service', 1)}${prose('Service', 2)}<ul><li>Yes</li><li>Yes</li></ul></main></body>`;
    const out = pageToMarkdown(html);
    expect(out.split('Boards, docs and timelines').length).toBe(2);
    expect(out).toContain('Service paragraph 2');
    expect(out.split('Yes').length).toBe(3);
  });
  test('a slogan above a grid of cards wrapped whole in links is not the content: the grid is', () => {
    const card = (i: number) => `<div class="card"><a href="/w${i}"><h3>Wallet model ${i}</h3><span>Aluminium shell in matte black</span> <span>$${70 + i}</span></a></div>`;
    const slogan = '<h2>Built for life</h2><p>Our materials are chosen with care and a thoughtful connection to the insights of our growing community. Together we can do more with less.</p><p>Free shipping and returns on every order. Lifetime warranty on every wallet.</p>';
    const html = `<body><header>${nav}</header><div class="collection"><div class="wrap"><div class="filters"><a href="/f1">Black</a> <a href="/f2">Olive</a></div><div class="product-list">${Array.from({ length: 14 }, (_, i) => card(i)).join('')}</div></div></div><div class="story"><div class="inner">${slogan}</div></div><footer><a href="/">Home</a> <a href="/about">About us</a></footer></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Wallet model 13');
    expect(out).toContain('Together we can do more with less');
    expect(out).not.toContain('Menu 3');
  });
  test("a card's info block (title link and price) inside wrappers of a one-target grid item is kept; a link menu in the page is not", () => {
    const card = (i: number) => `<div class="product-card"><a href="/p/lamp-${i}"><img src="/i/${i}.jpg" alt=""></a><div class="card-inner"><div class="card-info"><a href="/p/lamp-${i}">Brass desk lamp model ${i} with linen shade</a> <span>$${40 + i}</span></div></div></div>`;
    const menu = `<div class="related"><a href="/c/a">Floor lamps and standing lights</a> <a href="/c/b">Ceiling lights and pendants</a> <a href="/c/c">Wall lights</a></div>`;
    const html = `<body>${nav}<main><h1>Desk lamps</h1>${prose('Lamp', 1)}${prose('Lamp', 2)}<div class="grid">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</div>${menu}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Lamp paragraph 2');
    expect(out).toContain('Brass desk lamp model 0 with linen shade');
    expect(out).toContain('Brass desk lamp model 7 with linen shade');
    expect(out).toContain('$47');
    expect(out).not.toContain('Ceiling lights and pendants');
  });
  test('wrapped card info blocks kept by the grid exemption do not lift a fragment over the check: the safe cleanup keeps the offers', () => {
    const card = (i: number) => `<div class="result"><a href="/r/${i}"><img src="/i/${i}.jpg" alt=""></a><div class="result-inner"><div class="result-info"><a href="/r/${i}">Oak dining table for six, item ${i}</a> <span>$${300 + i}</span></div></div></div>`;
    const offer = (i: number) => `<div class="offer"><a href="/o/${i}">Walnut bench offer ${i} from a partner shop</a> <a href="/shop/${i}">Partner shop ${i}</a> <a href="/o/${i}/compare">Compare prices</a></div>`;
    const html = `<body>${nav}<main><h1>Dining tables</h1><p>Tables for every room.</p><div class="results">${Array.from({ length: 8 }, (_, i) => card(i)).join('')}</div><div class="offers">${Array.from({ length: 4 }, (_, i) => offer(i)).join('')}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Oak dining table for six, item 7');
    expect(out).toContain('Walnut bench offer 3 from a partner shop');
    expect(out).not.toContain('Menu 3');
  });
  test("a card wrapped whole in a link keeps its header-named title block; the page's header goes", () => {
    const job = (i: number) => `<li class="job"><a href="/jobs/${i}"><div class="job__header"><h3>Backend engineer ${i}</h3><p>${i + 1}d</p></div><p class="company">Company ${i} Ltd</p><p>Full-Time, anywhere in the world, salary from 90,000 to 120,000 USD, four weeks of paid leave, equipment provided</p></a></li>`;
    const html = `<body><div class="site-header"><a href="/">Jobs</a> <a href="/post">Post a job</a></div><div class="content"><h1>Remote backend jobs</h1><ul class="jobs">${Array.from({ length: 8 }, (_, i) => job(i)).join('')}</ul></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Backend engineer 7');
    expect(out).toContain('Company 7 Ltd');
    expect(out).not.toContain('Post a job');
  });
  test('sibling copies are compared by their text with white space collapsed, not by its length alone', () => {
    const a = 'Boards, docs and timelines in one place, so the whole team sees the same plan today.';
    const b = a.replace('today', 'daily'); // the same length, other text
    const spaced = a.replaceAll(' ', ' \n\u00a0 ').replace('Boards', '  <b>Boards</b>');
    const body = bodyOf(parseHtml(`<div><p>${a}</p><p>${b}</p><p>${spaced}</p><section><p>${b}</p><p>${b}</p></section></div>`));
    dropSiblingCopies(body as never);
    const html = serializeHtml(body.children);
    expect(html.split('today').length).toBe(2);
    // The section's inner copy goes first; then the section (b once) is a copy of the second paragraph.
    expect(html.split('daily').length).toBe(2);
    expect(html).not.toContain('<section>');
  });

  test('a link post whose comments are the thread keeps its short comments beside one long comment', () => {
    // One comment holds over 30% of the page and escapes the pruning; it is a reply too, so it does
    // not count as the text that outweighs the other comments (which made them boilerplate).
    const comment = (i: number, n = 1) =>
      `<li class="comments_subtree"><div class="comment"><div class="comment_text">${Array.from({ length: n }, (_, k) => `<p>Comment ${i}.${k}: the borrow checker accepts this once the value is cloned before the thread starts, at a small cost.</p>`).join('')}</div></div></li>`;
    const html = `<body><header>${nav}</header><main><div class="story"><h1><a href="https://blog.example/post">Cloning into threads</a></h1><span>via ann</span></div><ol class="comments">${comment(0, 12)}${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => comment(i, 2)).join('')}</ol></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Comment 0.11: the borrow checker');
    expect(out).toContain('Comment 1.0: the borrow checker');
    expect(out).toContain('Comment 8.1: the borrow checker');
  });

  test('replies nested in replies (a threaded discussion of comment-named posts) are kept at every depth', () => {
    const words = (who: string) => `<div class="body"><p>${who}: the kernel build failed on my machine too, and the patch from the mailing list fixed it after a clean rebuild.</p></div>`;
    const tree = (path: string, depth: number): string =>
      `<li class="comment">${words(`Reply ${path}`)}${depth < 4 ? `<ul>${[1, 2].map((i) => tree(`${path}.${i}`, depth + 1)).join('')}</ul>` : ''}</li>`;
    const html = `<body><header>${nav}</header><div class="story"><h1>Kernel build</h1><p>A short story about a build that failed.</p></div><ul class="listing">${[1, 2, 3].map((i) => tree(String(i), 1)).join('')}</ul></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reply 1:');
    expect(out).toContain('Reply 3.2:');
    expect(out).toContain('Reply 2.1.2.1:');
    expect(out).not.toContain('Menu 3');
  });

  test('content after an early </body></html> (a pasted template closing the page) stays in the page', () => {
    const html = `<html><body><header>${nav}</header></body></html><div class="entry"><h1>Outsourcing</h1>${Array.from({ length: 4 }, (_, i) => prose('Late', i)).join('')}</div><!-- end --></body></html>`;
    for (const onlyMainContent of [true, false]) {
      const out = pageToMarkdown(html, { onlyMainContent });
      expect(out).toContain('Late paragraph 0');
      expect(out).toContain('Late paragraph 3');
    }
  });

  test('an accordion whose questions are buttons inside headings keeps its questions and answers', () => {
    const item = (i: number) =>
      `<div class="faq-item"><h3><button aria-expanded="false">Question ${i}: how long does setup take?</button></h3><div class="faq-answer"><p>Answer ${i}: most teams are running the same day, and larger setups take a week with our help.</p></div></div>`;
    const html = `<body><header>${nav}</header><main><h1>Marketing software</h1>${Array.from({ length: 4 }, (_, i) => prose('Service', i)).join('')}<section><h2>Questions</h2>${Array.from({ length: 5 }, (_, i) => item(i)).join('')}</section></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Service paragraph 3');
    expect(out).toContain('Question 0: how long');
    expect(out).toContain('Answer 4: most teams');
  });

  test("an accordion whose questions are links to a bare '#' (script toggles) keeps its questions", () => {
    const item = (i: number) =>
      `<div class="accordion__item"><div class="accordion__title"><h5><a href="#">Question ${i}: why offer support to staff who leave?</a></h5></div><div class="accordion__content"><p>Answer ${i}: it is in everybody's best interest that they move on quickly, and former staff refer clients.</p></div></div>`;
    const html = `<body><header>${nav}</header><section><h1>HR consulting</h1>${Array.from({ length: 3 }, (_, i) => prose('Service', i)).join('')}</section><section><h3>FAQs</h3>${Array.from({ length: 4 }, (_, i) => item(i)).join('')}</section></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Service paragraph 2');
    expect(out).toContain('Answer 3: it is');
    expect(out).toContain('Question 0: why offer support');
    expect(out).toContain('Question 3: why offer support');
  });
  test("a grid item's picture keeps no alt (a thumbnail's description), nor does an image in an article's paragraphs", () => {
    const course = (i: number) => `<div class="tile"><div class="tile__media"><img src="/c${i}.jpg" alt="Colourful abstract shapes on a dark background, number ${i}"></div><div class="tile__body"><span>Online</span><h3><a href="/c${i}">Course ${i} on data analysis</a></h3><p>Learn to clean, model and chart data in ${i + 2} weeks.</p></div></div>`;
    const html = `<body>${nav}<main><h1>Data courses</h1><div class="tiles">${Array.from({ length: 6 }, (_, i) => course(i)).join('')}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Course 5 on data analysis');
    expect(out).toContain('![](https://site.example/c3.jpg)');
    expect(out).not.toContain('Colourful abstract shapes');
    const figure = (i: number) => `<p><img src="/f${i}.jpg" alt="A heron standing in the reeds at dawn, photo ${i}"></p>`;
    const article = `<body>${nav}<article><h1>Birds of the marsh</h1>${prose('Marsh', 1)}${figure(1)}${prose('Marsh', 2)}${figure(2)}${prose('Marsh', 3)}${figure(3)}${prose('Marsh', 4)}</article></body>`;
    const out2 = pageToMarkdown(article);
    expect(out2).toContain('![](https://site.example/f2.jpg)');
    expect(out2).not.toContain('A heron standing');
  });
  test('an action control repeated on every grid item (Add to cart, Quick view) is dropped; controls with labels of their own stay', () => {
    const card = (i: number) => `<li class="product"><a href="/p${i}"><h3>Walnut stool ${i}</h3></a><p>Solid walnut, 45 cm high, oiled finish.</p><span class="price">$${120 + i}</span><div class="QuickViewButton">Quick view</div><a class="btn btn--small" href="/cart?add=${i}">Add to cart</a></li>`;
    const sizes = ['Small', 'Medium', 'Large'].map((s) => `<span class="size-button">${s}</span>`).join('');
    const html = `<body>${nav}<main><h1>Stools</h1><p>Every stool is made to order in our workshop and ships within three weeks.</p><div class="sizes">${sizes}</div><ul class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</ul></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Walnut stool 5');
    expect(out).toContain('$125');
    expect(out).not.toContain('Add to cart');
    expect(out).not.toContain('Quick view');
    expect(out).toContain('Medium');
  });
  test('an action link repeated under every teaser (N comments, More like this) is dropped; the titles stay', () => {
    const teaser = (i: number) => `<div class="teaser"><h2><a href="/news/${i}">Harbour story number ${i}</a></h2><p>The harbour board met on day ${i} to discuss the new ferry timetable and the pier repairs.</p><p><span>By Ann Roe, harbour reporter</span> <a href="/news/${i}#comments">${i + 2} comments</a></p><p><span>Filed on day ${i}</span> <a href="/search?like=${i}">More like this</a></p></div>`;
    const html = `<body>${nav}<main><h1>Latest news</h1>${Array.from({ length: 5 }, (_, i) => teaser(i)).join('')}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Harbour story number 4');
    expect(out).toContain('By Ann Roe, harbour reporter');
    expect(out).not.toContain('comments');
    expect(out).not.toContain('More like this');
  });
  test('adjacent inline boxes with no white space between them (a flex row of facts) read as separate words; code spans and single letters stay joined', () => {
    const row = (i: number) => `<li class="title"><h3><a href="/t${i}">Film number ${i}</a></h3><div class="facts"><span>2026</span><span>1h ${i}m</span><span>PG</span></div><p>A film about harbour number ${i}, told by the people who work on its piers and ferries.</p></li>`;
    const html = `<body>${nav}<main><h1>Top films</h1>${prose('Films', 1)}<ul class="chart">${Array.from({ length: 5 }, (_, i) => row(i)).join('')}</ul><pre><code><span>let</span><span>x</span> = 1;</code></pre><p>Our <span>H</span><span>i</span> sign and a long closing sentence about the chart and how it is made.</p></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('2026 1h 4m PG');
    expect(out).toContain('letx = 1;');
    expect(out).toContain('Our Hi sign');
  });

  test('picture captions leave the story; captions of code listings and quotations stay', () => {
    const para = (i: number) => prose('Story', i);
    const html = `<body><header>${nav}</header><article><h1>Garden tour</h1>${para(0)}<figure><img src="/a.jpg" alt=""><figcaption>Photo credit: Jane Roe for the Daily Example</figcaption></figure>${para(1)}<div class="pic"><picture><img src="/b.jpg" alt=""></picture><figcaption>A shady corner of the garden in June</figcaption></div>${para(2)}<figure><pre><code>plant(tree)</code></pre><figcaption>Listing 1: planting a tree</figcaption></figure>${para(3)}<figure><blockquote><p>Gardens are patience made visible, one season after another.</p></blockquote><figcaption>Ann Example, gardener</figcaption></figure>${para(4)}</article></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Story paragraph 4');
    expect(out).not.toContain('Photo credit: Jane Roe');
    expect(out).not.toContain('A shady corner');
    expect(out).toContain('Listing 1: planting a tree');
    expect(out).toContain('Ann Example, gardener');
  });

  test("React's streamed segments take their boundaries' place; lazy sections with an empty fallback stay out", () => {
    const para = (i: number) => prose('Story', i);
    // A boundary whose fallback shows "Loading paragraph..." (streamed), a placeholder inside the streamed
    // content, and a lazy boundary with an empty fallback (a recommendations rail below the fold).
    const html = `<body><header>${nav}</header><article class="article-body"><h1>Index funds</h1>${para(0)}<!--$?--><template id="B:0"></template><div>Loading paragraph...</div><!--/$-->${para(1)}</article><!--$?--><template id="B:1"></template><!--/$--><div hidden id="S:0"><p>Streamed paragraph: index funds track a market index and charge low fees to the people who hold them.</p><template id="P:2"></template></div><div hidden id="S:2"><p>Nested streamed paragraph: a brokerage account is all it takes to buy the shares of one.</p></div><div hidden id="S:1"><ul>${Array.from({ length: 4 }, (_, i) => `<li><a href="/r${i}">Recommended story ${i}</a></li>`).join('')}</ul></div><script>$RC("B:0","S:0");$RS("S:2","P:2");$RC("B:1","S:1")</script></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Story paragraph 1');
    expect(out).toContain('Streamed paragraph: index funds');
    expect(out).toContain('Nested streamed paragraph');
    expect(out).not.toContain('Loading paragraph');
    expect(out).not.toContain('Recommended story');
    expect(out.indexOf('Story paragraph 0')).toBeLessThan(out.indexOf('Streamed paragraph'));
    expect(out.indexOf('Streamed paragraph')).toBeLessThan(out.indexOf('Story paragraph 1'));
  });

  test('on a page declaring a product, a block labelled as customer reviews is not content; elsewhere it is', () => {
    const review = (i: number) => `<li><p>Reviewer ${i}: sturdy, quick to put together, and it holds all my vinyl records without sagging at all.</p><span>5 stars</span></li>`;
    const reviews = `<div class="pr"><div class="summary">4.6 out of 5, 98 ratings</div><h2>Reviews<span>98 reviews, average 4.6</span></h2><ul>${Array.from({ length: 3 }, (_, i) => review(i)).join('')}</ul></div>`;
    const page = (head: string) => `<html><head>${head}</head><body><header>${nav}</header><main><h1>Oak shelf</h1>${Array.from({ length: 6 }, (_, i) => prose('Shelf', i)).join('')}${reviews}</main></body></html>`;
    const og = pageToMarkdown(page('<meta property="og:type" content="product">'));
    expect(og).toContain('Shelf paragraph 5');
    expect(og).not.toContain('Reviewer 2: sturdy');
    const ld = pageToMarkdown(page(`<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: 'Oak shelf' })}</script>`));
    expect(ld).not.toContain('Reviewer 2: sturdy');
    // A service page's testimonials (no product declared) stay.
    expect(pageToMarkdown(page('<meta property="og:type" content="website">'))).toContain('Reviewer 2: sturdy');
  });

  test('a section whose id spells its heading stays, also behind an empty anchor (Sphinx: id="s-more-about-…")', () => {
    const section = (slug: string, title: string, i: number) =>
      `<section id="s-${slug}"><span id="${slug}"></span><h2>${title}</h2>${prose(`Section ${i}`, 0)}${prose(`Section ${i}`, 1)}</section>`;
    const html = `<body><header>${nav}</header><div role="main" class="body"><section id="s-working-with-widgets"><span id="working-with-widgets"></span><h1>Working with widgets</h1>${prose('Intro', 0)}${section('building-a-widget', 'Building a widget', 1)}${section('more-about-widget-classes', 'More about widget classes', 2)}${section('widget-templates', 'Widget templates', 3)}</section></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Section 1 paragraph 1');
    expect(out).toContain('More about widget classes');
    expect(out).toContain('Section 2 paragraph 1');
    expect(out).toContain('Section 3 paragraph 1');
  });

  test("a picture beside a short text keeps no alt, nor does a figure's picture", () => {
    const html = `<body>${nav}<main><h1>Our coffee</h1>${prose('Coffee', 1)}${prose('Coffee', 2)}<div class="tile"><img src="/t.jpg" alt="Smiling barista pouring milk into a cup"><p>Tastings every Saturday in our Leeds shop.</p></div>${prose('Coffee', 3)}<figure><img src="/f.jpg" alt="Roasting drum full of dark beans"><figcaption>Our roaster.</figcaption></figure>${prose('Coffee', 4)}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Tastings every Saturday');
    expect(out).toContain('![](https://site.example/t.jpg)');
    expect(out).not.toContain('Smiling barista');
    expect(out).toContain('![](https://site.example/f.jpg)');
    expect(out).not.toContain('Roasting drum');
  });

  test('a scripted shell whose only text is its site footer (link lists) has no main content; a footer of prose keeps it', () => {
    const links = (n: number) => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/help/${i}">Help topic number ${i}</a></li>`).join('')}</ul>`;
    const shell = `<body><div id="root"></div><footer><h5>Help</h5>${links(12)}<p>© Shop</p></footer></body>`;
    expect(pageToMarkdown(shell).trim()).toBe('');
    expect(pageToMarkdown(shell, { onlyMainContent: false })).toContain('Help topic number 3');
    // An unclosed footer holding the page's prose is not a link list: its text stays.
    const wrapped = `<body><footer><div class="story">${Array.from({ length: 4 }, (_, i) => prose('Footer', i)).join('')}${links(3)}</div></footer></body>`;
    expect(pageToMarkdown(wrapped)).toContain('Footer paragraph 2');
  });
  test("a thread of short posts beside poster panes widens past each post's pane to the whole thread", () => {
    const pane = (i: number) => `<div class="message-cell message-cell--user"><section class="message-user"><h4 class="message-name"><a href="/members/poster${i}.${i}/">poster${i}</a></h4><div class="banner">Member</div><a href="/location?l=${i}">Springfield Town Centre ${i}</a></section></div>`;
    const body = (text: string) => `<div class="message-cell message-cell--main"><div class="message-content"><article class="message-body"><div class="bbWrapper">${text}</div></article></div></div>`;
    const first = `<article class="message message--post"><div class="message-inner">${pane(0)}${body('You and your friends are sent on a long journey across the world to stop a terrible monster before it ends everything. What do you take with you, who leads the way, and how do you keep everyone going when the road gets hard? Describe your party, its strengths and its weaknesses, and be honest about who would give up first.')}</div></article>`;
    const reply = (i: number) => `<article class="message message--post"><div class="message-inner">${pane(i)}${body(`Reply ${i}: we would argue about the map for an hour and then walk the wrong way.`)}</div></article>`;
    const html = `<body>${nav}<div class="block-body">${first}${Array.from({ length: 5 }, (_, i) => reply(i + 1)).join('')}</div><footer><a href="/">Home</a></footer></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('sent on a long journey');
    expect(out).toContain('Reply 1: we would argue');
    expect(out).toContain('Reply 5: we would argue');
    // The posts are the region (whose poster panes are cut), not the safe cleanup's whole page.
    expect(out).not.toContain('Springfield Town Centre');
    expect(out).not.toContain('Menu 3');
  });
  test('a script toggle repeated under every quote (a link without a target: Click to expand...) is dropped; the quotes stay', () => {
    const said = ['The wind turned north on Monday and the ferry stayed in port.', 'Fog lay on the bay until noon, thick as wool, every single day.', 'We walked the dunes at low water and found the old wreck again.', 'Hail in June, of all months, and the gulls sat it out on the roofs.'];
    const quote = (i: number) => `<blockquote class="bbCodeBlock"><div class="bbCodeBlock-content">${said[i]}</div><div class="bbCodeBlock-expandLink"><a role="button" tabindex="0">Click to expand...</a></div><div class="bbCodeBlock-shrinkLink"><a>Click to shrink...</a></div></blockquote>`;
    const post = (i: number) => `<div class="post"><div class="body">${quote(i)}<p>Reply ${i}: the tide tables were wrong that week, the harbour office said so later on its site.</p></div></div>`;
    const html = `<body>${nav}<div class="thread"><h1>Coastal weather</h1>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Hail in June');
    expect(out).toContain('Reply 3: the tide tables');
    expect(out).not.toContain('Click to expand');
    expect(out).not.toContain('Click to shrink');
  });
  test("a post's reaction and vote counts (likes- or votes-named: 79 Likes) are dropped with the post's other meta", () => {
    const post = (i: number) => `<div class="topic-body"><div class="post"><p>Post ${i}: valuation is a judgement call, and the growth rate matters more than the ratio you start from.</p></div><span class="post-likes">${10 + i} Likes</span><div class="post-votes">${20 + i} upvotes</div></div>`;
    const html = `<body>${nav}<div id="main-outlet"><h1>How do you value a company?</h1>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Post 3: valuation is a judgement call');
    expect(out).not.toContain('Likes');
    expect(out).not.toContain('upvotes');
  });
  test('a short form that posts (an answer box) is not content; the answers above it are', () => {
    const answer = (i: number) => `<div class="answer"><p>Answer ${i}: cook the rice a day ahead, cool it fast on trays, and reheat it in covered pans in the oven.</p></div>`;
    const form = `<form id="post-form" method="post" action="/questions/1/answer"><h2>Your Answer</h2><div class="editor"></div><div class="help"><p>Thanks for contributing an answer.</p><p>Please be sure to answer the question.</p><p>Provide details and share your research.</p></div><div class="form-submit"><button type="submit">Post Your Answer</button><p>By clicking Post Your Answer, you agree to our terms of service.</p></div></form>`;
    const html = `<body>${nav}<div id="mainbar"><h1>Catering for sixty people</h1><div class="question"><p>How should I plan the rice for a party of sixty guests when I have only one home kitchen and two ovens?</p></div><div id="answers">${Array.from({ length: 3 }, (_, i) => answer(i)).join('')}${form}</div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Answer 2: cook the rice');
    expect(out).not.toContain('Your Answer');
    expect(out).not.toContain('you agree to our terms');
  });
  test('an article beside long unnamed link lists (a tag cloud, a monthly archive) is the content, not a fragment of the page', () => {
    const story = Array.from({ length: 10 }, (_, i) => prose('Wine', i)).join('');
    const tags = `<ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="/blog?tag=t${i}">Tag number ${i}</a></li>`).join('')}</ul>`;
    const archive = `<ul>${Array.from({ length: 60 }, (_, i) => `<li><a href="/blog/2024/post-${i}">An older story from the archive, number ${i}</a></li>`).join('')}</ul>`;
    const html = `<body>${nav}<div class="page"><div class="col-a"><article class="blog-post"><h1>Types of wine</h1>${story}</article></div><div class="col-b"><h3>Tags</h3>${tags}<h3>Archive</h3>${archive}</div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Wine paragraph 0');
    expect(out).toContain('Wine paragraph 9');
    expect(out).not.toContain('Tag number 7');
    expect(out).not.toContain('older story from the archive, number 3');
  });
  test('an author box after the story (About the author, Written by) goes; a section about an author in the story stays', () => {
    const story = Array.from({ length: 6 }, (_, i) => prose('Index fund', i)).join('');
    const box = (h: string) => `<section class="box p-8"><h3>${h}</h3><p>Jane Doe is a contributing analyst who has covered personal finance and retirement planning for over ten years.</p></section>`;
    const html = `<body>${nav}<main><article><h1>Index funds explained</h1>${story}<h2>About the authors of the index</h2><p>Two economists at the exchange designed the index in 1957 and wrote its rules down.</p>${box('About the Author')}</article><aside>${box('Written by Jane Doe')}</aside></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Index fund paragraph 5');
    expect(out).toContain('Two economists at the exchange');
    expect(out).not.toContain('About the Author');
    expect(out).not.toContain('contributing analyst');
  });
  test('fine print in content blocks marked by a BEM modifier (richtext--disclaimer) goes, however long together', () => {
    const story = Array.from({ length: 5 }, (_, i) => `<div class="richtext text"><div class="cmp-richtext">${prose('Index fund', i)}</div></div>`).join('');
    const fine = (i: number) => `<div class="richtext text cmp-richtext--disclaimer"><div class="cmp-richtext"><p>Fine print ${i}: all investing is subject to risk, including the possible loss of the money you invest; past performance is no guarantee of future returns, and fees apply.</p></div></div>`;
    const html = `<body>${nav}<main><div class="grid"><h1>Index funds explained</h1>${story}<div id="disclosures" class="cmp-container">${[0, 1, 2, 3].map(fine).join('')}</div></div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Index fund paragraph 0');
    expect(out).toContain('Index fund paragraph 4');
    expect(out).not.toContain('Fine print 0');
    expect(out).not.toContain('Fine print 3');
  });
  test("sections whose ids are a table of contents' jump targets (toc_<slug>) are content; the table of contents is not", () => {
    const slugs = ['how-they-work', 'how-to-invest-in-them', 'pros-and-cons-listed', 'types-of-index-funds', 'who-should-not-invest'];
    const toc = `<div id="toc-container"><ul>${slugs.map((s) => `<li><a href="#toc_${s}">Jump to ${s}</a></li>`).join('')}</ul></div>`;
    const sections = slugs.map((s, i) => `<div id="toc_${s}"><h2>Section ${s}</h2>${prose('Fund', i)}${prose('Fund', i + 10)}</div>`).join('');
    const html = `<body>${nav}<main><h1>Index funds</h1>${toc}<div class="article-body">${prose('Intro', 0)}${sections}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Intro paragraph 0');
    expect(out).toContain('Fund paragraph 2 ');
    expect(out).toContain('Fund paragraph 14');
    expect(out).not.toContain('Jump to how-they-work');
  });
  test("a list whose every item is a heading (an article's linked picks) stays; a plain link list in the article goes", () => {
    const picks = `<ul>${['Klein Tools MM400', 'Fluke T5-1000', 'Knipex Pliers'].map((n, i) => `<li><h2><a href="https://shop.example/p${i}">${n}</a></h2></li>`).join('')}</ul>`;
    const menu = `<ul>${Array.from({ length: 4 }, (_, i) => `<li><a href="/cat/${i}">Category ${i}</a></li>`).join('')}</ul>`;
    const html = `<body>${nav}<article><h1>Tools every electrician needs</h1>${prose('Tools', 0)}<h3>1. Multimeters</h3>${prose('Tools', 1)}<h4>Top picks:</h4>${picks}${prose('Tools', 2)}${menu}${prose('Tools', 3)}</article></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Tools paragraph 3');
    expect(out).toContain('Klein Tools MM400');
    expect(out).toContain('Knipex Pliers');
    expect(out).not.toContain('Category 2');
  });
  test('an icon button labelled with its action and the item (Save this event: <title>) on every card is dropped; the titles stay', () => {
    const titles = ['Reverse engineering for modern shops', 'Getting clients from networking events', 'Tech writing for beginners and beyond', 'Green tech and sustainability pitch night', 'A spring workshop on design systems'];
    const card = (t: string, i: number) => `<li class="event-card"><a href="/e/${i}"><h3>${t}</h3></a><p>Online event, day ${i + 3} at noon, free of charge.</p><div class="card-actions"><span class="icon-SaveButton" role="button"><span class="hidden-label">Save this event: ${t}</span></span><span class="icon-ShareButton" role="button"><span class="hidden-label">Share this event: ${t}</span></span></div></li>`;
    const html = `<body>${nav}<main><h1>Online tech events</h1><p>Browse the events of the coming weeks, all of them online and most of them free.</p><ul class="results">${titles.map(card).join('')}</ul></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Green tech and sustainability pitch night');
    expect(out).toContain('free of charge');
    expect(out).not.toContain('Save this event');
    expect(out).not.toContain('Share this event');
  });
  test('skip links (Skip to content, Go to Footer: links to a place on the page) are dropped inside the content too; a link that merely starts the same way stays', () => {
    const html = `<body><main id="main"><h1>Kettle</h1><div class="intro">Our best-selling kettle, in brushed steel and glass, boils a full litre in under three minutes and switches itself off when the water is ready. <a href="#content">Skip to content</a> <a href="#footer">Go to Footer</a></div>${Array.from({ length: 3 }, (_, i) => prose('Kettle', i)).join('')}<p>Read the manual, then <a href="/guide">go to the setup guide</a> for the first boil.</p></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Kettle paragraph 2');
    expect(out).not.toContain('Go to Footer');
    expect(out).not.toContain('Skip to content');
    expect(out).toContain('go to the setup guide');
  });

  test('a region inside a block the safe cleanup drops (a page header beside a large dialog) gives way to the safe cleanup', () => {
    const consent = `<div role="dialog" class="consent"><p>${'We and our partners use cookies and similar technologies to store and access information on your device, to measure audiences and to personalise content. '.repeat(12)}</p></div>`;
    const header = `<header class="site-header"><div class="bar"><p>Free delivery on every order above fifty dollars, and returns are free for thirty days after purchase, at every store and online, for all members of our club.</p><p>Members save ten percent on every battery and charger this month, in every store and on the online shop.</p></div><ul>${['Mowers', 'Trimmers', 'Blowers', 'Chainsaws'].map((w) => `<li><a href="/${w}">${w}</a></li>`).join('')}</ul></header>`;
    const grid = `<div class="products">${['KR800 Quiet autonomous', 'KR161 Compact robot', 'KR172 Large robot'].map((w, i) => `<div class="card"><a href="/p${i}">${w} $ 1,99${i}.00</a></div>`).join('')}</div>`;
    const out = pageToMarkdown(`<body>${consent}${header}${grid}</body>`);
    expect(out).toContain('KR161 Compact robot');
    expect(out).not.toContain('We and our partners use cookies');
  });
  test("Webflow's conditionally hidden blocks (w-condition-invisible: display none) are not content; a class merely starting so is", () => {
    const story = Array.from({ length: 6 }, (_, i) => prose('Moving', i)).join('');
    const gated = '<div class="layout__gated w-condition-invisible"><p>Check your email, your download is on the way to your inbox now.</p></div>';
    const shown = '<div class="w-condition-invisible-not"><p>This block is shown to every reader of the page, with the rest.</p></div>';
    const out = pageToMarkdown(`<body>${nav}<article><h1>Moving guide</h1>${story}${gated}${shown}</article></body>`);
    expect(out).toContain('Moving paragraph 5');
    expect(out).not.toContain('your download is on the way');
    expect(out).toContain('shown to every reader');
  });
  test('small blocks after the story inside the main landmark (an appeal, a next-step box) go; a next section of the same kind stays', () => {
    const story = Array.from({ length: 10 }, (_, i) => prose('Tutoring', i)).join('');
    const appeal = '<div class="box-yellow"><h3>Enjoyed this piece?</h3><p>We need your help to keep publishing: give what you can today.</p></div>';
    const next = '<section class="band"><h2>Ready to start?</h2><p>Talk to one of our experts about your school and plan the next term.</p></section>';
    const html = `<body>${nav}<main><div class="wrap"><h1>Tutoring after the pandemic</h1><div class="col-8">${story}</div>${appeal}</div>${next}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Tutoring paragraph 0');
    expect(out).toContain('Tutoring paragraph 9');
    expect(out).not.toContain('Enjoyed this piece');
    expect(out).not.toContain('Ready to start');
    // The landmark's next part of the story's own kind (a second column of the story) stays.
    const more = `<div class="col-8">${prose('Later', 0)}</div>`;
    const out2 = pageToMarkdown(`<body>${nav}<main><div class="wrap"><h1>Tutoring after the pandemic</h1><div class="col-8">${story}</div>${more}</div></main></body>`);
    expect(out2).toContain('Later paragraph 0');
  });
  test('a region made of repeated short slides (a carousel) must hold half the page, not 0.4: else the safe cleanup keeps the rest', () => {
    const slide = (i: number) => `<div class="slide"><p>Offer ${i}: fast servers, in twelve regions, with backups, a firewall, and support every day.</p></div>`;
    const plans = `<div class="plans"><ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/plan/${i}">Cloud server plan number ${i} with more disk</a></li>`).join('')}</ul></div>`;
    const html = `<body>${nav}<div class="carousel">${Array.from({ length: 4 }, (_, i) => slide(i)).join('')}</div>${plans}</body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Offer 3: fast servers');
    expect(out).toContain('Cloud server plan number 11');
  });
  test("a header block opening the main landmark (layout__header: title and intro) is content; a header-named block further down is not", () => {
    const intro = '<p>The Socket interface opens a two-way channel to a server, and sends and receives its messages as events.</p>';
    const later = '<div class="dialog-box__header"><h3>Sign in to save this page</h3><p>Saving needs an account, and it keeps your reading list on every device.</p></div>';
    const body = `<div class="layout__body">${Array.from({ length: 5 }, (_, i) => `<section><h2>Part ${i}</h2>${prose('Reference', i)}</section>`).join('')}${later}</div>`;
    const html = `<body>${nav}<div class="page"><main id="content"><div class="layout__header reference-layout__header"><h1>Socket</h1>${intro}</div>${body}</main></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reference paragraph 4');
    expect(out).toContain('opens a two-way channel');
    expect(out).not.toContain('Sign in to save this page');
  });
  test('a block of frequently asked questions named as tabs or a menu (faq_tabs-menu) is content; a tabs menu of links is not', () => {
    const qa = (i: number) => `<div class="faq_tabs-menu-link"><h3>Question ${i}: how long does the setup of the service take?</h3><p>Answer ${i}: most teams are set up in a day or two.</p></div>`;
    const tabs = `<div class="tabs-menu">${['Plans', 'Pricing', 'Support', 'Status'].map((w) => `<a href="/${w}">${w} tab</a>`).join(' ')}</div>`;
    const html = `<body>${nav}<main><h1>Identity protection</h1>${Array.from({ length: 4 }, (_, i) => prose('Service', i)).join('')}${tabs}<div class="faq_tabs"><div class="faq_tabs-menu">${[0, 1, 2].map(qa).join('')}</div></div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Service paragraph 3');
    expect(out).toContain('Question 2: how long');
    expect(out).toContain('Answer 0: most teams');
    expect(out).not.toContain('Pricing tab');
  });
  test("an accordion's short panel (role=region labelled by its trigger) under a soft name is an answer, not a dropdown menu", () => {
    const item = (i: number) => `<li class="accordion-item"><button id="q${i}">Question ${i}: is a cat covered?</button><div class="accordion-inner text-links" role="region" aria-labelledby="q${i}"><p>Answer ${i}: yes, cats and dogs are covered from eight weeks on.</p></div></li>`;
    const menu = '<div class="accordion-inner text-links"><p>Sale ends Sunday, shop now.</p></div>';
    const html = `<body>${nav}<main><h1>Pet insurance</h1>${Array.from({ length: 4 }, (_, i) => prose('Insurance', i)).join('')}${menu}<ul class="content accordion-container">${[0, 1, 2].map(item).join('')}</ul></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Insurance paragraph 3');
    expect(out).toContain('Answer 2: yes, cats and dogs');
    expect(out).not.toContain('Sale ends Sunday');
  });
  test('a region of filter labels and counts (no sentence) is a fragment even though the product grid beside it is a teaser list', () => {
    const facets = `<div class="filters"><div class="group"><h3>Item Type</h3><div class="options">${Array.from({ length: 12 }, (_, i) => `<div class="option"><label><input type="radio" name="type" value="t${i}">Control panels and boards type ${i}</label><span>${100 + i * 37}</span></div>`).join('')}</div></div></div>`;
    const card = (i: number) => `<div class="product"><a href="/p${i}"><h4>Replacement battery model ${i}</h4></a><span>$29.9${i}</span> <span>Lifetime guarantee</span></div>`;
    const html = `<body>${nav}<div class="layout"><div class="left">${facets}</div><div class="right"><div class="products">${Array.from({ length: 16 }, (_, i) => card(i)).join('')}</div></div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Replacement battery model 15');
  });
  test('a card under a grid item (col > card > card-body) keeps its two pictures and its title, brand and price', () => {
    const names = ['Walnut desk lamp', 'Brass floor lamp', 'Linen table lamp', 'Oak pendant lamp', 'Steel wall lamp', 'Glass globe lamp'];
    const col = (n: string, i: number) => `<div class="col-6"><div class="card"><a href="/p${i}"><img src="/a${i}.jpg"><img src="/b${i}.jpg"></a><div class="card-body"><a href="/p${i}">${n} large</a> by <a href="/brand">Acme</a> Item# 17${i} $39.00</div></div></div>`;
    const intro = [0, 1].map((i) => `<p>Note ${i}: our lamps are made to order in our workshop, in walnut, oak, brass and linen, and ship within two weeks.</p>`).join('');
    const out = pageToMarkdown(`<body>${nav}<div class="container"><h1>Lamps</h1>${intro}<div class="row">${names.map(col).join('')}</div></div></body>`);
    expect(out).toContain('Note 1: our lamps');
    expect(out).toContain('Walnut desk lamp large');
    expect(out).toContain('Item# 175 $39.00');
  });

  test('a quote keeps its attribution ("Name said:", a link to the quoted post) and loses its expand toggle, even once', () => {
    const quote = `<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title"><a href="/goto/post?id=11" class="bbCodeBlock-sourceJump">Marta said:</a></div><div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">The fan curve in the BIOS is broken after the update</div><div class="bbCodeBlock-expandLink"><a role="button" tabindex="0">Click to expand...</a></div></div></blockquote>`;
    const post = (i: number, body: string) => `<article class="message message--post"><div class="message-user"><a href="/members/u${i}">user${i}</a></div><div class="message-content"><div class="bbWrapper">${body}</div></div></article>`;
    const html = `<body>${nav}<div class="p-body"><h1>Loud fans after update</h1><div class="block-body">${post(1, 'First post: the fan curve in the BIOS seems broken after the update, and nothing I tried helps so far.')}${post(2, `${quote}Set it to silent mode and reboot, then it calms down for good; it did for me twice already.`)}${post(3, 'Third post: thanks, that worked well for me, the fan is quiet again after the reboot.')}</div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Marta said:');
    expect(out).toContain('Set it to silent mode');
    expect(out).not.toContain('Click to expand');
  });

  test("post numbers linking to their posts (#1, #2 ... beside each post) are dropped; a link whose label is a number elsewhere stays", () => {
    const post = (i: number) => `<article class="post"><div class="post-body"><span class="postbit"><a class="post-position" href="/threads/fans.1/#post-${100 + i}">#${i + 1}</a> <span>·</span> <time>Jun ${i + 2}, 2024</time></span><p>Reply ${i}: the fan curve in the BIOS was the culprit, and setting it to silent mode, then rebooting, made it quiet again.</p></div></article>`;
    const html = `<body>${nav}<main><h1>Loud fans after update</h1>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}<p>See also the issue <a href="/issues/42">#42</a> for the same fault on older boards.</p></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reply 3: the fan curve');
    expect(out).toContain('Jun 5, 2024');
    expect(out).not.toMatch(/\[#[1-4]\]/);
    expect(out).toContain('[#42]');
  });

  test('a card rendered twice in one item (a mobile and a desktop rendition) comes out once; two different blocks in one item stay', () => {
    const card = (i: number, extra: string) => `<div class="card"><a href="/e/${i}">Tech meetup number ${i} in the city hall</a><p>Tomorrow at ${i + 1}:00 PM, free entry</p>${extra}</div>`;
    const item = (i: number) => `<li><div class="result"><div class="mobile-card">${card(i, `<p>260 followers</p>`)}</div><div class="desktop-card">${card(i, '')}</div></div></li>`;
    const pair = `<div class="about"><div class="col"><h2>Our venue</h2><p>The city hall hosts the meetups in its large room, with seats for two hundred people.</p></div><div class="col"><h2>Our team</h2><p>Volunteers from the local user groups run every meetup and welcome new speakers.</p></div></div>`;
    const html = `<body>${nav}<main><h1>Tech events</h1><ul class="results">${Array.from({ length: 4 }, (_, i) => item(i)).join('')}</ul>${pair}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out.split('Tech meetup number 2 in the city hall').length - 1).toBe(1);
    expect(out).toContain('260 followers');
    expect(out).toContain('seats for two hundred people');
    expect(out).toContain('welcome new speakers');
  });

  test('signatures under the posts of a thread go even when they outweigh the one-line posts (never a layout name)', () => {
    const post = (i: number) => `<tr><td class="msg"><div class="msg_body"><div class="msg_text">Post ${i}: same here, it broke after the update.</div><div class="signature"><div class="sig_text">Currently playing: three long role-playing games at once, on two consoles, and losing at all of them ${i}.</div></div></div></td></tr>`;
    const html = `<body>${nav}<div class="board"><h1>Update broke the fan</h1><table class="board message msg_list"><tbody>${Array.from({ length: 6 }, (_, i) => post(i)).join('')}</tbody></table></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Post 5: same here');
    expect(out).not.toContain('Currently playing');
  });
  test('a task list (disabled tick boxes opening the items) keeps its short items; a list of live tick boxes (a filter) still goes', () => {
    const para = (n: number) => `<p>Planning paragraph ${n} says, in some detail and with commas, what to book first, what can wait, and why.</p>`;
    const items = ['Eat a good breakfast', 'Pack the rings', 'Thank the band', 'Call the florist'];
    const list = `<ul>${items.map((t) => `<li><input disabled="" type="checkbox"> ${t}</li>`).join('')}</ul>`;
    const filters = `<ul>${['Red', 'Blue'].map((t) => `<li><input type="checkbox" name="colour"> Show ${t} only</li>`).join('')}</ul>`;
    const html = `<body>${nav}<article><h1>Checklist</h1>${para(1)}${para(2)}<h3>Wedding day</h3>${list}${para(3)}${filters}</article></body>`;
    const out = pageToMarkdown(html);
    for (const t of items) expect(out).toContain(t);
    expect(out).not.toContain('Show Red only');
  });

  test('a "Related:" or "Also read:" paragraph whose lead and link sit in one emphasis goes; a sentence in emphasis with a link stays', () => {
    const para = (n: number) => `<p>Story paragraph ${n} tells, with enough words and some commas, what the travellers saw on the road north.</p>`;
    const html = `<body>${nav}<article><h1>Road trip</h1>${para(1)}<p><em>Also read: <a href="/other">Ten quiet towns along the coast</a></em></p>${para(2)}<p><strong>» Related: <a href="/r">Packing for a long drive</a></strong></p>${para(3)}<p><em>We stayed in <a href="/h">a small inn</a> near the old bridge for two nights.</em></p>${para(4)}</article></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Story paragraph 4');
    expect(out).not.toContain('Ten quiet towns');
    expect(out).not.toContain('Packing for a long drive');
    expect(out).toContain('a small inn');
  });
  test("a picture's credit set in a span or div of its figure goes like a figcaption; a figure of code keeps its text", () => {
    const para = (n: number) => `<p>Garden paragraph ${n} explains, with some detail and a few commas, how the beds were dug and planted.</p>`;
    const html = `<body>${nav}<article><h1>Spring beds</h1>${para(1)}<figure><div class="image"><img src="/a.jpg"></div><div class="label">Credit: Studio Lens / Jane Roe</div></figure>${para(2)}<figure><img src="/b.jpg"><span class="credit">Photo by Sam Poe</span></figure>${para(3)}<figure><pre><code>plant(bed, seeds)</code></pre><div>Listing one: planting a bed</div></figure>${para(4)}</article></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Garden paragraph 4');
    expect(out).toContain('a.jpg');
    expect(out).not.toContain('Studio Lens');
    expect(out).not.toContain('Sam Poe');
    expect(out).toContain('Listing one');
  });
  test('an author box under "Article written by:" or "Reviewed by" goes; the story stays', () => {
    const para = (n: number) => `<p>Clinic paragraph ${n} explains, with some detail and a few commas, how the weekly sessions are run.</p>`;
    const box = (label: string, who: string) => `<div class="person"><h2>${label}</h2><h3>${who}</h3><p>${who} is a physician who has treated patients for twenty years and leads the clinic's weekly classes.</p></div>`;
    const html = `<body>${nav}<main><article><h1>Weekly sessions</h1>${Array.from({ length: 8 }, (_, i) => para(i)).join('')}</article>${box('Article written by:', 'Dr Ann Vale')}${box('Medically reviewed by', 'Dr Ben Roe')}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Clinic paragraph 7');
    expect(out).not.toContain('Ann Vale');
    expect(out).not.toContain('Ben Roe');
  });

  test("a linked picture's alt that describes the photo is no link text; a title in Title Case stays", () => {
    const para = (n: number) => `<p>Meal paragraph ${n} explains, with some detail and a few commas, what each box holds and what it costs.</p>`;
    const html = `<body>${nav}<article><h1>Meal boxes</h1>${para(1)}<p><a href="/shop/a"><img src="/a.jpg" alt="Two people eating green salads at a white table near the window"></a></p>${para(2)}<p><a href="/shop/b"><img src="/b.jpg" alt="The Complete Guide To Green Salad Boxes For Busy Weekday Lunches"></a></p>${para(3)}</article></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Meal paragraph 3');
    expect(out).toContain('a.jpg');
    expect(out).not.toContain('Two people eating');
    expect(out).toContain('The Complete Guide To Green Salad Boxes');
  });

  test('an FAQ question in a disclosure button (aria-expanded) heads its answer again; a "Show more" toggle and a lone button do not come back', () => {
    const item = (i: number) => `<div class="faq-item"><button class="faq-toggle" aria-expanded="false">Question ${i}: can the plan be paused for a month?</button><div class="faq-panel"><p>Answer ${i}: yes, the plan can be paused from the account page at any time.</p></div></div>`;
    const more = '<div class="faq-item"><button class="faq-toggle" aria-expanded="false">Show more details here</button><div class="faq-panel"><p>Every plan includes support by mail and by phone on workdays.</p></div></div>';
    const lone = '<div class="row"><button type="button">Compare all the plans</button><p>Plans differ in storage, seats and the level of support they include.</p></div>';
    const html = `<body>${nav}<main><h1>Storage plans</h1>${Array.from({ length: 4 }, (_, i) => prose('Service', i)).join('')}${lone}<div class="faq">${[0, 1, 2].map(item).join('')}${more}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Service paragraph 3');
    expect(out).toContain('Answer 2: yes, the plan');
    expect(out).toContain('Question 0: can the plan be paused');
    expect(out).toContain('Question 2: can the plan be paused');
    expect(out.indexOf('Question 1:')).toBeLessThan(out.indexOf('Answer 1:'));
    expect(out).toContain('Every plan includes support');
    expect(out).not.toContain('Show more details');
    expect(out).not.toContain('Compare all the plans');
  });

  test('a block that is mostly grid cards the cleaning kept is their grid, however link-dense (a job list under its heading)', () => {
    const job = (i: number) => `<div class="job"><a href="/jobs/${i}">Data analyst ${i}</a> <a href="/co/${i}">Acme ${i}</a> <span>Remote, ${i + 2} days ago</span></div>`;
    const intro = [0, 1, 2, 3].map((i) => `<p>Note ${i}: every job here is remote, checked by our editors, and pays in the range the employer states up front.</p>`).join('');
    const html = `<body>${nav}<div class="page"><h1>Remote jobs</h1>${intro}<div><div><h2>Latest</h2>${Array.from({ length: 6 }, (_, i) => job(i)).join('')}</div></div></div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Note 1: every job');
    expect(out).toContain('Data analyst 5');
    expect(out).toContain('Remote, 7 days ago');
  });
  test('a reading-time label (8 min read) standing alone goes; a sentence mentioning one stays', () => {
    const para = (n: number) => `<p>Trail paragraph ${n} explains, with some detail and a few commas, where the path climbs and where it rests.</p>`;
    const html = `<body>${nav}<article><h1>Hill trails</h1><div><span>8 min read</span></div>${para(1)}${para(2)}<p>The full guide is a 20 min read for anyone planning the ridge.</p>${para(3)}</article></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Trail paragraph 3');
    expect(out).not.toContain('8 min read');
    expect(out).toContain('a 20 min read for anyone');
  });

  test("a dropdown's list of menu entries (role=menuitemradio) inside the region goes, however long; the listing stays", () => {
    const choices = Array.from({ length: 60 }, (_, i) => `<a role="menuitemradio" href="/top?lang=l${i}"><span>Language number ${i}</span></a>`).join('');
    const menu = `<details><summary>Language: Any</summary><div class="pane"><div class="entries">${choices}</div></div></details>`;
    const row = (i: number) => `<article class="row"><h2><a href="/r/${i}">owner${i} / project${i}</a></h2><p>Project ${i} is a small library that parses, checks and formats configuration files, and reports every error it finds with its line and column.</p><span>${1200 + i} stars today</span></article>`;
    const html = `<body>${nav}<main><h1>Top projects</h1><p>See what people here are most excited about today.</p><div class="bar">${menu}</div><div class="rows">${Array.from({ length: 14 }, (_, i) => row(i)).join("")}</div></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Project 13 is a small library');
    expect(out).not.toContain('Language number 50');
    // The safe cleanup (the page's fallback) drops it too.
    const body = bodyOf(parseHtml(html));
    safeCleanup(body);
    const safe = serializeHtml(body);
    expect(safe).toContain('Project 13 is a small library');
    expect(safe).not.toContain('Language number 50');
  });

  test('a microdata value hidden by a utility class (d-none with itemprop) goes; a hidden-classed block without itemprop stays', () => {
    const comment = (i: number) => `<div class="note"><span class="d-none" itemprop="name">writer${i}</span><p itemprop="text">Note ${i}: the loop runs the tasks together, so the waits overlap instead of adding up one after the other.</p><time class="d-none" itemprop="dateCreated">2021-04-0${i + 1}T04:06:17.467Z</time></div>`;
    const html = `<body>${nav}<main><h1>How do async and await work?</h1>${prose('Answer', 0)}${prose('Answer', 1)}<div class="row hide">${prose('Revealed', 2)}</div>${Array.from({ length: 3 }, (_, i) => comment(i)).join('')}</main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Note 2: the loop runs');
    expect(out).not.toContain('writer2');
    expect(out).toContain('Revealed paragraph 2');
    expect(out).not.toContain('T04:06:17');
  });

  test("a closing prompt whose only link asks a new question (/questions/ask) goes like an account prompt; a post's link to it stays", () => {
    const post = (i: number) => `<div class="post"><p>Answer ${i}: bring two coolers, one for the cold dishes and one for the drinks, and label the lids so helpers find things fast.</p></div>`;
    const notice = `<div class="bottom-notice"><div class="card"><p>Start asking to get answers</p><p>Find the answer to your question by asking.</p><a class="btn" href="https://qa.example/questions/ask">Ask question</a></div></div>`;
    const html = `<body><header>${nav}</header><div class="question-page"><h1>Catering a picnic for forty people</h1>${Array.from({ length: 3 }, (_, i) => post(i)).join('')}<div class="post"><p>Answer 3: if nobody here knows, <a href="https://qa.example/questions/ask">ask a new question</a> with the number of guests, the menu you have in mind and the budget you can spend.</p></div>${notice}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Answer 2: bring two coolers');
    expect(out).toContain('ask a new question');
    expect(out).not.toContain('Start asking to get answers');
  });

  test('a block headed "Customer reviews for <item>" is not content even without a product declaration; "Reviews" alone there stays', () => {
    const review = (i: number) => `<li><p>Reviewer ${i}: sturdy, quick to put together, and it holds all my vinyl records without sagging at all.</p></li>`;
    const block = (heading: string) => `<div class="rv"><h2>${heading}<span><a href="/help/reviews">About reviews</a></span></h2><p>Overall: very positive</p><ul>${Array.from({ length: 3 }, (_, i) => review(i)).join('')}</ul></div>`;
    const page = (heading: string) => `<html><head><meta property="og:type" content="website"></head><body><header>${nav}</header><main><h1>Oak shelf</h1>${Array.from({ length: 6 }, (_, i) => prose('Shelf', i)).join('')}${block(heading)}</main></body></html>`;
    const shopper = pageToMarkdown(page('Customer reviews for Oak shelf'));
    expect(shopper).toContain('Shelf paragraph 5');
    expect(shopper).not.toContain('Reviewer 2: sturdy');
    expect(pageToMarkdown(page('Reviews'))).toContain('Reviewer 2: sturdy');
  });
  test('edit notes and unfilled template bindings under posts go; an editor credit without a date and braces in code stay', () => {
    const post = (i: number) => `<div class="post"><div class="content"><p>Reply ${i}: I swapped the power supply, reseated the memory, and the board has booted every time since then.</p><div class="notice">Last edited by <a href="/u/${i}">poster${i}</a> on Tue Aug ${i + 2}, 2019 10:03 pm, edited 1 time in total.</div><div class="alert" ng-show="board.errors[${i}]"><strong>{{ board.errors[${i}].message }}</strong></div></div></div>`;
    const html = `<body>${nav}<main><h1>Board does not boot</h1><p class="credit">Edited by Jane Doe</p>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}<pre><code>{{ board.title }}</code></pre></main></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Reply 3: I swapped the power supply');
    expect(out).not.toContain('Last edited by');
    expect(out).not.toContain('board.errors');
    expect(out).toContain('Edited by Jane Doe');
    expect(out).toContain('{{ board.title }}');
  });

  test('a callout of sentences with links in them (link density 0.33-0.6, 150+ characters outside links) stays; a link list goes', () => {
    const callout = '<div class="box box-warning"><p>Warning: read the <a href="/guide/upgrade">upgrade guide for the storage engine</a> first. Stop the <a href="/guide/service">background sync service</a> before you start. Back up the <a href="/guide/data">data directory and its settings</a> too. The tool does not undo an upgrade once it has begun its work. See the <a href="/notes">release notes of this version</a> for what changed, and plan an hour of downtime.</p></div>';
    const links = `<div class="box">${['Install', 'Configure', 'Upgrade', 'Troubleshoot', 'Reference'].map((w) => `<a href="/${w}">${w} the storage engine</a>`).join(' ')} and more.</div>`;
    const html = `<body>${nav}<div class="doc"><h1>Upgrading</h1>${Array.from({ length: 5 }, (_, i) => prose('Manual', i)).join('')}${callout}${links}${prose('Manual', 5)}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Manual paragraph 5');
    expect(out).toContain('Warning: read the');
    expect(out).toContain('does not undo an upgrade');
    expect(out).not.toContain('Troubleshoot the storage engine');
  });

  test('a paragraph opening its block as a heading ("Explore related questions") labels a recommendation block; after other text it does not', () => {
    const post = (i: number) => `<div class="post"><p>Answer ${i}: keep the cold dishes in a second cooler and set the drinks apart from the buffet line so it moves faster.</p></div>`;
    const related = `<div class="card"><div class="stack"><p class="bold">Explore related questions</p><p>See similar questions with these tags.</p><ul class="tags"><li><a href="/tags/picnic">picnic</a></li><li><a href="/tags/catering">catering</a></li></ul></div></div>`;
    const closing = `<div class="post"><p>Answer 9: the guests asked for the recipes afterwards, so print them and bring a few copies along with the plates.</p><p>Related</p><p>Bring spare ice, it melts faster than you expect.</p></div>`;
    const html = `<body><header>${nav}</header><div class="question-page"><h1>Catering a picnic for forty people</h1>${Array.from({ length: 4 }, (_, i) => post(i)).join('')}${closing}${related}</div></body>`;
    const out = pageToMarkdown(html);
    expect(out).toContain('Answer 3: keep the cold dishes');
    expect(out).toContain('Bring spare ice');
    expect(out).not.toContain('See similar questions');
  });
});
