/**
 * Contract cases of the `screenshot` format (formats/screenshot.ts): its options and the capture it
 * asks the engine for; the engine's answer is given here (test/browser/engine.test.ts takes real ones).
 */
import { expect, test } from 'bun:test';
import plugin from '../../../formats/screenshot.ts';
import { testFormat } from '../suites/format.ts';

const shot = 'http://127.0.0.1:3002/v2/blobs/0123456789abcdef0123456789abcdef.png';

testFormat(plugin, [
  { name: 'the document carries the captured URL', page: '<p>x</p>', capture: shot, expect: (doc) => expect(doc.screenshot).toBe(shot) },
  { name: 'no capture (a PDF opened directly): the field is left out', page: '<p>x</p>', expect: (doc) => expect('screenshot' in doc).toBe(false) },
  { name: 'fullPage, quality and viewport are accepted', page: '<p>x</p>', options: { fullPage: true, quality: 50, viewport: { width: 800, height: 600 } }, capture: shot, expect: (doc) => expect(doc.screenshot).toBe(shot) },
  { name: 'quality above 100 is a 400 naming the option', options: { quality: 101 }, invalid: /screenshot.*quality/ },
  { name: 'an unknown option is a 400', options: { colour: 'red' }, invalid: /screenshot/ },
]);

test('screenshot asks the engine for the capture its options describe', () => {
  expect(plugin.capture!({ fullPage: true, quality: 50 })).toEqual({ kind: 'screenshot', fullPage: true, quality: 50, viewport: undefined });
});
