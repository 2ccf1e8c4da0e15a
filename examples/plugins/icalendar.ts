/**
 * Example parser plugin (docs/plugins.md): iCalendar files (`text/calendar`, `.ics`, RFC 5545) become
 * markdown, one section per event with its time, place and description, so every format (markdown,
 * summary, json ...) works on calendars. The calendar's name is the document's title.
 */
import { defineParser, TrawlError } from 'trawl/plugin';

interface CalendarEvent {
  summary?: string;
  start?: string;
  end?: string;
  location?: string;
  description?: string;
}

export default defineParser({
  name: 'icalendar',
  accepts: {
    mime: ['text/calendar'],
    ext: ['.ics', '.ical'],
    // Content sniffing: a calendar served as text/plain or octet-stream is still read. Never throws.
    magic: (bytes) => new TextDecoder().decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, '').trimStart().startsWith('BEGIN:VCALENDAR'),
  },
  async parse(input, _options, ctx) {
    const text = (input.text ?? new TextDecoder().decode(input.bytes)).replace(/^\uFEFF/, '');
    if (!text.trimStart().startsWith('BEGIN:VCALENDAR')) {
      // Errors name the plugin, so a user can tell which parser refused the file.
      throw new TrawlError('SCRAPE_UNSUPPORTED_FILE_ERROR', `[icalendar] ${input.url} is not an iCalendar file (no BEGIN:VCALENDAR)`);
    }
    const lines = unfold(text);
    const events: CalendarEvent[] = [];
    let calendarName: string | undefined;
    let event: CalendarEvent | undefined;
    for (const line of lines) {
      const { name, value } = property(line);
      if (name === 'BEGIN' && value === 'VEVENT') event = {};
      else if (name === 'END' && value === 'VEVENT' && event) {
        events.push(event);
        event = undefined;
      } else if (name === 'X-WR-CALNAME') calendarName = value;
      else if (event && name === 'SUMMARY') event.summary = value;
      else if (event && name === 'DTSTART') event.start = formatDate(value);
      else if (event && name === 'DTEND') event.end = formatDate(value);
      else if (event && name === 'LOCATION') event.location = value;
      else if (event && name === 'DESCRIPTION') event.description = value;
    }
    ctx.log.debug({ events: events.length }, 'parsed calendar');
    const title = calendarName ?? 'Calendar';
    const sections = events.map((e) => {
      const when = e.start ? `**When:** ${e.start}${e.end ? ` – ${e.end}` : ''}` : undefined;
      const where = e.location ? `**Where:** ${e.location}` : undefined;
      return [`## ${e.summary ?? 'Untitled event'}`, when, where, e.description].filter(Boolean).join('\n\n');
    });
    return { markdown: [`# ${title}`, ...sections].join('\n\n') + '\n', metadata: { title, numEvents: events.length } };
  },
});

/** Lines with RFC 5545 folding undone (a line starting with a space or tab continues the previous one). */
function unfold(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').replace(/\n[ \t]/g, '').split('\n').filter(Boolean);
}

/** `NAME;PARAM=x:value` → name and unescaped value. */
function property(line: string): { name: string; value: string } {
  const colon = line.indexOf(':');
  if (colon < 0) return { name: line.toUpperCase(), value: '' };
  const name = line.slice(0, colon).split(';')[0]!.toUpperCase();
  const value = line.slice(colon + 1).replace(/\\n/gi, '\n').replace(/\\([,;\\])/g, '$1');
  return { name, value };
}

/** `20261126T093000Z` → `2026-11-26 09:30 UTC`; `20261126` → `2026-11-26`; anything else as is. */
function formatDate(value: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})\d{2}(Z)?)?$/.exec(value);
  if (!m) return value;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  return m[4] ? `${day} ${m[4]}:${m[5]}${m[6] ? ' UTC' : ''}` : day;
}
