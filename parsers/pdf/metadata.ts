/**
 * Document metadata from the PDF info dictionary and catalog: title, author, subject (as
 * `description`), keywords, creator, producer, dates (ISO 8601) and language.
 */
import type * as Mupdf from 'mupdf';

/** `D:20230115103000+01'00'` → ISO 8601, or undefined when it does not parse. */
export function pdfDate(raw: string | undefined): string | undefined {
  const m = raw && /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(raw.trim());
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', tz] = m;
  const zone = !tz || tz === 'Z' ? 'Z' : `${tz.slice(0, 3)}:${tz.replace(/'/g, '').slice(3, 5) || '00'}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Metadata of an open PDF; empty values are left out. */
export function pdfMetadata(doc: Mupdf.Document): Record<string, unknown> {
  const get = (key: string) => {
    try {
      const v = doc.getMetaData(key)?.trim();
      return v ? v : undefined;
    } catch {
      return undefined;
    }
  };
  const out: Record<string, unknown> = {
    title: get('info:Title'),
    author: get('info:Author'),
    description: get('info:Subject'),
    keywords: get('info:Keywords'),
    creator: get('info:Creator'),
    producer: get('info:Producer'),
    creationDate: pdfDate(get('info:CreationDate')),
    modifiedDate: pdfDate(get('info:ModDate')),
  };
  try {
    const lang = doc.asPDF()?.getLanguage();
    if (lang) out.language = lang;
  } catch {
    // no catalog language
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}
