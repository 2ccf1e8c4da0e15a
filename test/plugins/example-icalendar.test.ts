/** Contract cases of the example parser plugin examples/plugins/icalendar.ts (docs/plugins.md). */
import { expect } from 'bun:test';
import plugin from '../../examples/plugins/icalendar.ts';
import { testParser } from '../contracts/suites/parser.ts';
import { CALENDAR } from './calendar-fixture.ts';

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
