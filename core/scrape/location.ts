/**
 * `location` emulation data (interface.md "Scrape options" `location`: languages sent as Accept-Language,
 * language and time zone emulated; the default language is the location's). A compact table of the
 * countries people scrape from most: the main IANA time zone and the main locale of each. Countries not
 * in the table keep the browser's time zone and fall back to `en-US` for the language. Core data: the
 * fetch path and map send its Accept-Language, search providers and the browser engine read it.
 */

/** ISO 3166-1 alpha-2 → [IANA time zone, default locale]. */
const COUNTRIES: Record<string, [string, string]> = {
  US: ['America/New_York', 'en-US'], CA: ['America/Toronto', 'en-CA'], MX: ['America/Mexico_City', 'es-MX'],
  BR: ['America/Sao_Paulo', 'pt-BR'], AR: ['America/Argentina/Buenos_Aires', 'es-AR'], CL: ['America/Santiago', 'es-CL'],
  CO: ['America/Bogota', 'es-CO'], PE: ['America/Lima', 'es-PE'], VE: ['America/Caracas', 'es-VE'],
  GB: ['Europe/London', 'en-GB'], IE: ['Europe/Dublin', 'en-IE'], FR: ['Europe/Paris', 'fr-FR'],
  DE: ['Europe/Berlin', 'de-DE'], AT: ['Europe/Vienna', 'de-AT'], CH: ['Europe/Zurich', 'de-CH'],
  NL: ['Europe/Amsterdam', 'nl-NL'], BE: ['Europe/Brussels', 'nl-BE'], LU: ['Europe/Luxembourg', 'fr-LU'],
  ES: ['Europe/Madrid', 'es-ES'], PT: ['Europe/Lisbon', 'pt-PT'], IT: ['Europe/Rome', 'it-IT'],
  DK: ['Europe/Copenhagen', 'da-DK'], NO: ['Europe/Oslo', 'nb-NO'], SE: ['Europe/Stockholm', 'sv-SE'],
  FI: ['Europe/Helsinki', 'fi-FI'], IS: ['Atlantic/Reykjavik', 'is-IS'], PL: ['Europe/Warsaw', 'pl-PL'],
  CZ: ['Europe/Prague', 'cs-CZ'], SK: ['Europe/Bratislava', 'sk-SK'], HU: ['Europe/Budapest', 'hu-HU'],
  RO: ['Europe/Bucharest', 'ro-RO'], BG: ['Europe/Sofia', 'bg-BG'], GR: ['Europe/Athens', 'el-GR'],
  HR: ['Europe/Zagreb', 'hr-HR'], SI: ['Europe/Ljubljana', 'sl-SI'], RS: ['Europe/Belgrade', 'sr-RS'],
  UA: ['Europe/Kyiv', 'uk-UA'], RU: ['Europe/Moscow', 'ru-RU'], TR: ['Europe/Istanbul', 'tr-TR'],
  EE: ['Europe/Tallinn', 'et-EE'], LV: ['Europe/Riga', 'lv-LV'], LT: ['Europe/Vilnius', 'lt-LT'],
  IL: ['Asia/Jerusalem', 'he-IL'], AE: ['Asia/Dubai', 'ar-AE'], SA: ['Asia/Riyadh', 'ar-SA'], EG: ['Africa/Cairo', 'ar-EG'],
  MA: ['Africa/Casablanca', 'fr-MA'], NG: ['Africa/Lagos', 'en-NG'], KE: ['Africa/Nairobi', 'en-KE'],
  ZA: ['Africa/Johannesburg', 'en-ZA'], IN: ['Asia/Kolkata', 'en-IN'], PK: ['Asia/Karachi', 'en-PK'],
  BD: ['Asia/Dhaka', 'bn-BD'], CN: ['Asia/Shanghai', 'zh-CN'], HK: ['Asia/Hong_Kong', 'zh-HK'],
  TW: ['Asia/Taipei', 'zh-TW'], JP: ['Asia/Tokyo', 'ja-JP'], KR: ['Asia/Seoul', 'ko-KR'],
  SG: ['Asia/Singapore', 'en-SG'], MY: ['Asia/Kuala_Lumpur', 'ms-MY'], TH: ['Asia/Bangkok', 'th-TH'],
  VN: ['Asia/Ho_Chi_Minh', 'vi-VN'], ID: ['Asia/Jakarta', 'id-ID'], PH: ['Asia/Manila', 'en-PH'],
  AU: ['Australia/Sydney', 'en-AU'], NZ: ['Pacific/Auckland', 'en-NZ'],
};

/**
 * Time zone and languages to emulate for a `location`.
 * @param location `{ country?, languages? }` from the scrape options (country upper- or lower-case)
 * @returns `timezone` (IANA name, undefined when the country is unknown or absent) and `languages`
 *          (the request's list, else the country's default locale; undefined when neither is given)
 */
export function locationEmulation(location: { country?: string; languages?: string[] } | undefined): {
  timezone?: string;
  languages?: string[];
} {
  if (!location) return {};
  const entry = location.country ? COUNTRIES[location.country.toUpperCase()] : undefined;
  // Items may be Accept-Language values themselves (`en-US,en;q=0.9`): flatten and drop q-values.
  const languages = (location.languages ?? [])
    .flatMap((l) => (typeof l === 'string' ? l.split(',') : []))
    .map((l) => l.split(';')[0]!.trim())
    .filter((l) => /^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$/.test(l));
  return {
    timezone: entry?.[0],
    languages: languages && languages.length > 0 ? languages : entry ? [entry[1]] : undefined,
  };
}

/**
 * An Accept-Language value for a language list in priority order: `de-DE, de;q=0.9, en;q=0.8` style
 * (quality falls by 0.1 per entry, never below 0.1).
 */
export function acceptLanguage(languages: string[]): string {
  return languages
    .map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`))
    .join(',');
}
