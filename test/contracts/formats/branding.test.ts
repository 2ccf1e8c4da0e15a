/**
 * Contract cases of the `branding` format (formats/branding.ts): the capture it asks for and what it
 * makes of the engine's answer. Real pages in Chromium: test/formats/branding.test.ts.
 */
import { expect, test } from 'bun:test';
import plugin from '../../../formats/branding.ts';
import { testFormat } from '../suites/format.ts';

const answer = { colorScheme: 'light', colors: { primary: '#ff5a1f' }, logo: null };

testFormat(plugin, [
  { name: 'the page script answer is the branding object', page: '<p>x</p>', capture: answer, expect: (doc) => expect(doc.branding).toEqual(answer) },
  { name: 'no answer (not rendered): null and a warning naming the format', page: '<p>x</p>', expect: (doc) => {
    expect(doc.branding).toBeNull();
    expect(doc.warning).toContain('[branding]');
  } },
]);

test('branding asks the browser to run its page script', () => {
  const capture = plugin.capture!({});
  expect(capture.kind).toBe('evaluate');
  expect(plugin.requires).toContain('js');
});
