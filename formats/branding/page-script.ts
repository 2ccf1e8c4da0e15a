/**
 * The page script of the `branding` format: runs in the rendered page (the browser engine's
 * `evaluate` capture) and reads the brand from computed styles and the DOM, with no model, so the
 * same page always gives the same answer. It must stay self-contained (its source is sent to the
 * page): no imports, no references outside the function.
 *
 * Rules, in order of precedence for each color: a CSS custom property on :root named after the role
 * (`--primary`, `--color-primary`, `--brand-primary` ...), then what the page shows:
 * - background / textPrimary: the body's background (the html element's when the body is
 *   transparent; white when both are) and text color; colorScheme `dark` when the background's
 *   relative luminance is below 0.5;
 * - link: the color of the first link in the body that is not styled as a button; primary: the background of the first button-like
 *   element with an opaque background (button, [role=button], .btn, input[type=submit]), else link;
 * - secondary: the background (or border color) of the next button-like element styled differently;
 * - textSecondary: the most used text color other than textPrimary, weighted by characters;
 * - success / warning / error: from elements whose class names say so (success, warning, error /
 *   danger), their text color; accent: only from a custom property.
 * Colors are normalized through a canvas (any CSS color → `#rrggbb`); transparent is null.
 */
export function brandingPageScript(): unknown {
  const canvas = document.createElement('canvas').getContext('2d');
  const hex = (value: string | null | undefined): string | null => {
    if (!value || !canvas) return null;
    const v = value.trim();
    if (!v || v === 'transparent' || v === 'none') return null;
    const m = /^rgba?\(([^)]+)\)$/.exec(v);
    if (m) {
      const parts = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
      if (parts.length >= 4 && parts[3] === 0) return null;
    }
    canvas.fillStyle = '#000000';
    canvas.fillStyle = v;
    const out = String(canvas.fillStyle);
    if (out.startsWith('#')) return out.toLowerCase();
    const rgba = /^rgba\(([^)]+)\)$/.exec(out);
    if (rgba) {
      const [r, g, b, a] = rgba[1]!.split(/\s*,\s*/).map(Number);
      if (!a) return null;
      return '#' + [r, g, b].map((n) => Math.round(n!).toString(16).padStart(2, '0')).join('');
    }
    return null;
  };
  const style = (el: Element | null) => (el ? getComputedStyle(el) : null);
  const root = getComputedStyle(document.documentElement);
  const variable = (role: string): string | null => {
    for (const name of [`--${role}`, `--color-${role}`, `--brand-${role}`, `--${role}-color`]) {
      const v = hex(root.getPropertyValue(name));
      if (v) return v;
    }
    return null;
  };
  const family = (css: string | undefined | null): string | null => {
    const first = (css ?? '').split(',')[0]?.trim().replace(/^["']|["']$/g, '');
    return first || null;
  };
  const visible = (el: Element) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  };
  const abs = (url: string | null | undefined): string | null => {
    if (!url || url.startsWith('data:')) return null;
    try {
      return new URL(url, document.baseURI).href;
    } catch {
      return null;
    }
  };
  const luminance = (h: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };

  const body = document.body;
  const bodyStyle = style(body);
  const background = variable('background') ?? hex(bodyStyle?.backgroundColor) ?? hex(root.backgroundColor) ?? '#ffffff';
  const textPrimary = variable('text') ?? hex(bodyStyle?.color) ?? '#000000';
  const BUTTONS = 'button, [role=button], .btn, .button, a.cta, input[type=submit], input[type=button]';
  const firstLink = Array.from(document.querySelectorAll('body a[href]')).find((a) => visible(a) && !a.matches(BUTTONS)) ?? null;
  const link = variable('link') ?? hex(style(firstLink)?.color);

  const buttons = Array.from(document.querySelectorAll(BUTTONS)).filter(visible);
  const opaque = buttons.filter((b) => hex(getComputedStyle(b).backgroundColor));
  const primaryButton = opaque[0] ?? null;
  const primaryStyle = style(primaryButton);
  const differs = (b: Element) => {
    const s = getComputedStyle(b);
    return !primaryStyle || s.backgroundColor !== primaryStyle.backgroundColor || s.borderColor !== primaryStyle.borderColor;
  };
  const secondaryButton = buttons.find((b) => b !== primaryButton && differs(b)) ?? null;
  const secondaryStyle = style(secondaryButton);

  const weights = new Map<string, number>();
  const walker = document.createTreeWalker(body ?? document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent?.trim();
    const parent = n.parentElement;
    if (!text || !parent || !visible(parent) || parent.closest('a, button, script, style')) continue;
    const c = hex(getComputedStyle(parent).color);
    if (c) weights.set(c, (weights.get(c) ?? 0) + text.length);
  }
  const byWeight = [...weights.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const textSecondary = variable('text-secondary') ?? byWeight.find(([c]) => c !== textPrimary)?.[0] ?? null;
  const state = (words: string[]) => {
    const el = Array.from(document.querySelectorAll('body [class]')).find((e) => words.some((w) => new RegExp(`(^|[-_\\s])${w}($|[-_\\s])`, 'i').test(e.getAttribute('class') ?? '')));
    return el ? hex(getComputedStyle(el).color) : null;
  };

  const heading = document.querySelector('h1') ?? document.querySelector('h2');
  const code = document.querySelector('code, pre, kbd, samp');
  const primaryFont = family(bodyStyle?.fontFamily);
  const headingFont = family(style(heading)?.fontFamily);
  const codeFont = family(style(code)?.fontFamily);
  const fonts = [...new Set([primaryFont, headingFont, codeFont, family(primaryStyle?.fontFamily)].filter((f): f is string => !!f))].map((f) => ({ family: f }));
  const size = (sel: string) => style(document.querySelector(sel))?.fontSize ?? null;

  const paddings = new Map<number, number>();
  for (const el of buttons.concat(Array.from(document.querySelectorAll('input, section, .card, header, footer, nav')))) {
    const s = getComputedStyle(el);
    for (const v of [s.paddingTop, s.paddingLeft, s.marginTop, s.gap]) {
      const px = Math.round(parseFloat(v));
      if (px > 0) paddings.set(px, (paddings.get(px) ?? 0) + 1);
    }
  }
  const common = [...paddings.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  const baseUnit = common === undefined ? null : common % 8 === 0 ? 8 : common % 4 === 0 ? 4 : common;

  const input = Array.from(document.querySelectorAll('input:not([type=submit]):not([type=button]):not([type=hidden]), textarea, select')).find(visible) ?? null;
  const inputStyle = style(input);
  const logoEl = document.querySelector('img[class*=logo i], img[id*=logo i], img[alt*=logo i], [class*=logo i] img, header img, a[href="/"] img');
  const logo = abs(logoEl?.getAttribute('src'));
  const favicon = abs(document.querySelector('link[rel~=icon i]')?.getAttribute('href')) ?? abs('/favicon.ico');
  const ogImage = abs(document.querySelector('meta[property="og:image"], meta[name="og:image"]')?.getAttribute('content'));

  return {
    colorScheme: luminance(background) < 0.5 ? 'dark' : 'light',
    colors: {
      primary: variable('primary') ?? hex(primaryStyle?.backgroundColor) ?? link,
      secondary: variable('secondary') ?? hex(secondaryStyle?.backgroundColor) ?? hex(secondaryStyle?.borderColor),
      accent: variable('accent'),
      background,
      textPrimary,
      textSecondary,
      link,
      success: variable('success') ?? state(['success']),
      warning: variable('warning') ?? state(['warning']),
      error: variable('error') ?? variable('danger') ?? state(['error', 'danger']),
    },
    fonts,
    typography: {
      fontFamilies: { primary: primaryFont, heading: headingFont, code: codeFont },
      fontSizes: { body: bodyStyle?.fontSize ?? null, h1: size('h1'), h2: size('h2'), h3: size('h3') },
    },
    spacing: { baseUnit, borderRadius: primaryStyle?.borderRadius ?? null },
    components: {
      buttonPrimary: primaryStyle ? { background: hex(primaryStyle.backgroundColor), textColor: hex(primaryStyle.color), borderRadius: primaryStyle.borderRadius } : null,
      buttonSecondary: secondaryStyle
        ? { background: hex(secondaryStyle.backgroundColor), borderColor: hex(secondaryStyle.borderColor), textColor: hex(secondaryStyle.color), borderRadius: secondaryStyle.borderRadius }
        : null,
      input: inputStyle
        ? { background: hex(inputStyle.backgroundColor), borderColor: hex(inputStyle.borderColor), textColor: hex(inputStyle.color), borderRadius: inputStyle.borderRadius }
        : null,
    },
    images: { logo, favicon, ogImage },
    logo,
    animations: null,
    icons: null,
    layout: null,
    personality: null,
  };
}
