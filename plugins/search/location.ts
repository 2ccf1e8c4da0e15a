/**
 * What a search `location` (a place name, interface.md search body: "Berlin,Berlin,Germany", "Germany",
 * "DE") means to the providers that have no place parameter of their own: its country (the last part,
 * an English country name or an ISO 3166-1 code) and that country's default language, from the one
 * country table Trawl has (core/scrape/location.ts). Serper takes the place name itself.
 */
import type { SearchQuery } from '../../core/plugin.ts';
import { locationEmulation } from '../../core/scrape/location.ts';

let byName: Map<string, string> | undefined;

/** English region name (lower case) → ISO code, for every code Intl knows; a few common aliases. */
function countryNames(): Map<string, string> {
  if (byName) return byName;
  byName = new Map([['usa', 'US'], ['united states of america', 'US'], ['uk', 'GB'], ['england', 'GB'], ['great britain', 'GB']]);
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const A = 'A'.charCodeAt(0);
  for (let i = 0; i < 26; i++) {
    for (let j = 0; j < 26; j++) {
      const code = String.fromCharCode(A + i, A + j);
      const name = names.of(code);
      // Deprecated codes that ICU maps to another (DD → DE, FX → FR) carry the same name: skip them.
      if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      if (name && name !== code && !byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), code);
    }
  }
  return byName;
}

/**
 * The ISO 3166-1 alpha-2 country of a place name: its last comma-separated part, as a code or an
 * English country name; undefined when it names no country.
 */
export function locationCountry(location: string | undefined): string | undefined {
  const last = location?.split(',').pop()?.trim();
  if (!last) return undefined;
  if (/^[A-Za-z]{2}$/.test(last)) return last.toUpperCase();
  return countryNames().get(last.toLowerCase());
}

/** The place of a search `location`: its first part when it has several ("Berlin" of "Berlin,Berlin,Germany"). */
export function locationPlace(location: string | undefined): string | undefined {
  const parts = location?.split(',').map((p) => p.trim()).filter(Boolean) ?? [];
  return parts.length > 1 ? parts[0] : undefined;
}

/**
 * Country and language a provider should use: the location's country over `country` (which defaults
 * to US, so it cannot tell a choice from the default), `lang` over the location country's language.
 * @returns `country` (ISO code) and `lang` (a locale such as `de-DE`, or the request's `lang`)
 */
export function searchLocale(q: Pick<SearchQuery, 'location' | 'country' | 'lang'>): { country?: string; lang?: string } {
  const fromLocation = locationCountry(q.location);
  const country = fromLocation ?? q.country;
  const lang = q.lang ?? (fromLocation ? locationEmulation({ country: fromLocation }).languages?.[0] : undefined);
  return { country, lang };
}
