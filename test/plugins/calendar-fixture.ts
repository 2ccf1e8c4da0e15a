/** An iCalendar file with two events (a folded line, escapes, a date-only event) for the example parser's tests. */
export const CALENDAR = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'X-WR-CALNAME:Harbour events',
  'BEGIN:VEVENT', 'SUMMARY:Regatta', 'DTSTART:20261205T093000Z', 'DTEND:20261205T170000Z', 'LOCATION:Outer harbour\\, pier 3',
  'DESCRIPTION:Boats leave at dawn\\nwhen the tide', '  turns.', 'END:VEVENT',
  'BEGIN:VEVENT', 'SUMMARY:Net mending', 'DTSTART;VALUE=DATE:20261212', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');
