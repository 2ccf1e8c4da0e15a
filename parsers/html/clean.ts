/**
 * The cleaned HTML behind `FormatInput.cleanedHtml()` (the `html` format and the input of `markdown`):
 * raw page HTML in, a cleaned HTML fragment out. Always: React's streamed segments moved into place
 * (streamed.ts), then scripts, styles, hidden elements, comments, embeds and form controls removed, URLs absolute (respecting `<base href>`), lazy images resolved.
 * Then, per scrape options (interface.md, Scrape options): `excludeTags` removes matches,
 * `includeTags` keeps only matches (and then `onlyMainContent` is not applied: the caller chose the
 * content), `onlyMainContent` (default true) keeps the main content (main-content.ts), or else what the
 * safe cleanup leaves, or else (when that is almost nothing) the page after the always-on cleanup;
 * a page whose text is all in its site footer (link lists) gives nothing (`footerOnly`).
 */
import { bodyOf, detach, elements, isTag, isText, normalizeSpace, parseHtml, relink, serializeHtml, textOf, type AnyNode, type Document, type ParentNode } from './dom.ts';
import { basicClean } from './basic-clean.ts';
import { resolveStreamedSegments } from './streamed.ts';
import { absolutizeUrls, baseUrlOf } from './urls.ts';
import { applyExcludeTags, applyIncludeTags } from './selectors.ts';
import { extractMainContent, safeCleanup } from './main-content.ts';
import { blockFingerprints } from './fingerprints.ts';
import { textLength } from './stats.ts';
import { coveredShare, jsonLdText, wordBag, type JsonLdText } from './jsonld.ts';

export interface CleanHtmlOptions {
  /** Final page URL; relative URLs are resolved against it (or against `<base href>`). */
  url: string;
  /** Keep only the main content (interface.md default: true). */
  onlyMainContent: boolean;
  /** CSS selectors; only matching elements are kept (outermost matches, document order). */
  includeTags?: string[];
  /** CSS selectors; matching elements are removed. */
  excludeTags?: string[];
  /**
   * Fingerprints of blocks repeated across the site (from `BoilerplateTracker.known()` during a crawl);
   * removed when `onlyMainContent` is on.
   */
  boilerplate?: ReadonlySet<string>;
  /** Told when main-content extraction failed unexpectedly and the safe cleanup was used instead. */
  onWarning?: (message: string, error: unknown) => void;
  /**
   * The page already parsed (`parseHtml(html)`, e.g. by the HTML parser plugin), to save a second
   * parse. The cleaner takes it over: it is changed in place and must not be read afterwards.
   */
  tree?: Document;
}

/** Whether the raw page may hold a `<script type="application/ld+json">` (the `+` perhaps entity-encoded). */
const MAYBE_JSON_LD = /ld(?:\+|&[#\w]+;)json/i;

/**
 * Whether the raw page may hold a `<base>` element: a `<base` (tag names are read case-insensitively),
 * or a CDATA opener, whose removal by parseHtml could join one.
 */
const MAYBE_BASE = /<base|<!\[CDATA\[/i;

/** Whether the raw page may hold a `figcaption` or a `figure` (tag names are read case-insensitively). */
const MAYBE_FIGCAPTION = /<fig(caption|ure)/i;

/** A result with less text than this (characters, white space aside) is thin: a declared product description may join it. */
const THIN_RESULT_CHARS = 1000;
/** A declared product description shorter than this (words) is a tagline, not worth adding. */
const MIN_DESCRIPTION_WORDS = 20;
/** A description whose words the result holds to this share (0-1) is on the page already. */
const PRESENT_SHARE = 0.5;

/** When the safe cleanup leaves less than this share of the page's text, the page is returned uncut. */
const MIN_SAFE_SHARE = 0.1;

/**
 * `og:type` values that declare one product (`product`, `product.item`, a site's `ebay-objects:item` or
 * `zalando_sharing:product`); `product.group` is a category page.
 */
const PRODUCT_OG_TYPE = /^(?:[\w-]+:)?(?:product|item)$|^product\.item$/;

/**
 * The page's titles (`<title>`, `og:title`, `twitter:title`) and whether its `og:type` declares a
 * product, from the elements before the body.
 */
function pageHead(doc: Document): { titles: string[]; product: boolean } {
  const out: string[] = [];
  let product = false;
  for (const el of elements(doc)) {
    if (el.name === 'title' && out.length === 0) out.push(normalizeSpace(textOf(el)));
    else if (el.name === 'meta' && (el.attribs.property === 'og:title' || el.attribs.name === 'twitter:title') && el.attribs.content) {
      out.push(normalizeSpace(el.attribs.content));
    } else if (el.name === 'meta' && el.attribs.property === 'og:type' && PRODUCT_OG_TYPE.test((el.attribs.content ?? '').trim().toLowerCase())) {
      product = true;
    } else if (el.name === 'body') break;
  }
  return { titles: out.filter(Boolean), product };
}

/**
 * The page's `body`; when the markup has several (a template pasted whole into a page), the one holding
 * the most text. The raw HTML is checked first, so pages with one body pay nothing.
 */
function pageBody(doc: Document, html: string): ParentNode {
  const first = /<body[\s>]/i.exec(html);
  if (!first || !/<body[\s>]/i.test(html.slice(first.index + 5))) return adoptTrailing(bodyOf(doc));
  let best: ParentNode = bodyOf(doc);
  let bestLen = -1;
  for (const el of elements(doc)) {
    if (el.name !== 'body') continue;
    const len = textOf(el).length;
    if (len > bestLen) {
      best = el;
      bestLen = len;
    }
  }
  return best;
}

/**
 * `body` with what the markup puts after it moved in at its end: a `</body>` or `</html>` written too
 * early (a pasted template's closing tags) leaves the rest of the page after the body, where a browser's
 * parser still puts it in the body (HTML "after body" insertion mode). Reads only the siblings after
 * the body and after its `html` element; comments and blank text stay where they are.
 */
function adoptTrailing(body: ParentNode): ParentNode {
  if (!isTag(body as AnyNode)) return body;
  const moved: AnyNode[] = [];
  for (let n: AnyNode | null = body as AnyNode; n && n.parent; n = n.parent as AnyNode | null) {
    for (let sib = n.next; sib; sib = sib.next) {
      if (sib.type === 'comment' || sib.type === 'directive' || (isText(sib) && !sib.data.trim())) continue;
      moved.push(sib);
    }
    if (n.parent.type === 'root') break;
  }
  if (!moved.length) return body;
  for (const m of moved) detach(m);
  body.children.push(...moved);
  relink(body);
  return body;
}

/** Parses and applies the always-on cleanup; returns the body (or the document when it has none). */
function prepare(html: string, opts: CleanHtmlOptions, tree?: Document): { titles: string[]; product: boolean; declared: JsonLdText; root: ParentNode } {
  const doc = tree ?? parseHtml(html);
  const { titles, product } = pageHead(doc);
  // Most pages have no JSON-LD: one scan of the raw text saves a walk over the whole tree.
  const declared = opts.onlyMainContent && MAYBE_JSON_LD.test(html) ? jsonLdText(doc) : {};
  // Without a `<base` in the raw text there is no base element: no walk over the whole tree for it.
  const base = MAYBE_BASE.test(html) ? baseUrlOf(doc, opts.url) : opts.url;
  const root = pageBody(doc, html);
  // React's streamed segments are hidden until its scripts move them in place: move them first.
  resolveStreamedSegments(root, html);
  basicClean(root);
  absolutizeUrls(root, base);
  if (opts.excludeTags?.length) applyExcludeTags(root, opts.excludeTags);
  // A product page declares itself in JSON-LD or Open Graph: its customer reviews are not its content.
  return { titles, product: product || !!declared.product, declared, root };
}

/**
 * Cleans a page for output and returns the cleaned content as nodes of the page's tree (for the
 * markdown converter, which reads them without a serialize and re-parse).
 * @param html raw page HTML (decoded text); parsed unless `opts.tree` holds it parsed already
 * @returns the body's cleaned content, in document order
 * @throws TrawlError BAD_REQUEST (400) when a selector in includeTags/excludeTags is invalid
 */
export function cleanDom(html: string, opts: CleanHtmlOptions): AnyNode[] {
  const { titles, product, declared, root } = prepare(html, opts, opts.tree);
  if (opts.includeTags?.length) {
    applyIncludeTags(root, opts.includeTags);
    return root.children;
  }
  if (!opts.onlyMainContent) return root.children;
  try {
    const main = extractMainContent(root, { titles, articleBody: declared.articleBody, boilerplate: opts.boilerplate, product, captions: MAYBE_FIGCAPTION.test(html) });
    if (main) return withDeclaredDescription(main.nodes, declared.productDescription);
  } catch (e) {
    // A page must never fail because the extractor met markup it did not expect.
    opts.onWarning?.('main-content extraction failed; using the safe cleanup', e);
  }
  const again = prepare(html, opts);
  // A page whose only text is its footer (a scripted shell that rendered nothing else) has no content.
  if (footerOnly(again.root)) return [];
  const before = textLength(again.root as AnyNode);
  safeCleanup(again.root, { boilerplate: opts.boilerplate, product });
  // Markup that nests the whole page in its header (an unclosed element) must not come out empty.
  if (textLength(again.root as AnyNode) < before * MIN_SAFE_SHARE) return withDeclaredDescription(prepare(html, opts).root.children, declared.productDescription);
  return withDeclaredDescription(again.root.children, declared.productDescription);
}

/** A page with at least this share (0-1) of its text in its page footer is made of the footer. */
const FOOTER_ONLY_SHARE = 0.9;
/** ... of which at least this share (0-1) is link text: site links, not content in a misplaced footer. */
const FOOTER_LINK_SHARE = 0.8;

/**
 * Whether the page's text lies (nearly) all in its page footers (`footer` outside an article, or
 * `role=contentinfo`) and those are link lists: a shell whose content a script never rendered shows only
 * the site footer, which is no main content. A `footer` wrapping prose (an unclosed element holding the
 * page) is not link text, so such pages keep the usual fallbacks.
 */
function footerOnly(root: ParentNode): boolean {
  const total = textLength(root as AnyNode);
  if (!total) return false;
  let foot = 0;
  let link = 0;
  const stack = [...root.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (n.name === 'article') continue;
    if (n.name === 'footer' || n.attribs.role?.toLowerCase() === 'contentinfo') {
      foot += textLength(n);
      for (const a of elements(n)) if (a.name === 'a') link += textLength(a);
      continue;
    }
    for (const c of n.children) stack.push(c);
  }
  return foot >= total * FOOTER_ONLY_SHARE && link >= foot * FOOTER_LINK_SHARE;
}

/**
 * `nodes` followed by the product description the page declares in JSON-LD (`description`, jsonld.ts)
 * when the result is thin (under THIN_RESULT_CHARS) and does not hold most of the description's words
 * already: shops that load the description with a script still declare it. The description's markup
 * (some shops put HTML there) gets the always-on cleanup; plain text becomes paragraphs.
 */
function withDeclaredDescription(nodes: AnyNode[], description: string | undefined): AnyNode[] {
  if (!description) return nodes;
  let len = 0;
  for (const n of nodes) len += textLength(n);
  if (len >= THIN_RESULT_CHARS) return nodes;
  if ((description.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) < MIN_DESCRIPTION_WORDS) return nodes;
  if (coveredShare(description, wordBag(nodes.map(textOf).join(' '))) >= PRESENT_SHARE) return nodes;
  const markup = /<[a-z][^>]*>/i.test(description) ? description : description.split(/\n\s*\n/).map((p) => `<p>${p}</p>`).join('');
  const root = bodyOf(parseHtml(markup));
  basicClean(root);
  return [...nodes, ...root.children];
}

/**
 * Cleans a page's HTML for output (`cleanDom`, serialized).
 * @param html raw page HTML (decoded text)
 * @returns an HTML fragment (the body's cleaned content), entities encoded, trimmed
 * @throws TrawlError BAD_REQUEST (400) when a selector in includeTags/excludeTags is invalid
 */
export function cleanHtml(html: string, opts: CleanHtmlOptions): string {
  return serializeHtml(cleanDom(html, opts)).trim();
}

/**
 * Block fingerprints of a page after the always-on cleanup, for `BoilerplateTracker.addPage` during a
 * crawl (see fingerprints.ts).
 */
export function pageFingerprints(html: string, url: string): string[] {
  const { root } = prepare(html, { url, onlyMainContent: false });
  return blockFingerprints(root);
}
