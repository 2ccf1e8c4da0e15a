/** Contract cases of the example parser plugin examples/plugins/icalendar.ts (docs/plugins.md). */
import { expect } from 'bun:test';
import plugin from '../../examples/plugins/icalendar.ts';
import { testParser } from '../contracts/suites/parser.ts';

export const CALENDAR = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'X-WR-CALNAME:Harbour events',
  'BEGIN:VEVENT', 'SUMMARY:Regatta', 'DTSTART:20261205T093000Z', 'DTEND:20261205T170000Z', 'LOCATION:Outer harbour\\, pier 3',
  'DESCRIPTION:Boats leave at dawn\\nwhen the tide', '  turns.', 'END:VEVENT',
  'BEGIN:VEVENT', 'SUMMARY:Net mending', 'DTSTART;VALUE=DATE:20261212', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');

testParser(plugin, [
  {
    name: 'events become sections with time, place and description; folded lines joined',
    bytes: new TextEncoder().encode(CALENDAR),
    contentType: 'text/calendar',
    magic: true,
    expect: (doc) => {
      expect(doc.metadata).toEqual({ title: 'Harbour events', numEvents: 2 });
      expect(doc.markdown).toContain('# Harbour events');
      expect(doc.markdown).toContain('## Regatta');
      expect(doc.markdown).toContain('**When:** 2026-12-05 09:30 UTC – 2026-12-05 17:00 UTC');
      expect(doc.markdown).toContain('**Where:** Outer harbour, pier 3');
      expect(doc.markdown).toContain('Boats leave at dawn\nwhen the tide turns.');
      expect(doc.markdown).toContain('## Net mending\n\n**When:** 2026-12-12');
    },
  },
  {
    name: 'a calendar sent as text/plain is recognised by its first line',
    bytes: new TextEncoder().encode(`\uFEFF${CALENDAR}`),
    contentType: 'text/plain',
    magic: true,
    expect: (doc) => expect(doc.metadata.numEvents).toBe(2),
  },
]);
