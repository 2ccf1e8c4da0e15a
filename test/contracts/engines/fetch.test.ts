/** Contract cases of the `fetch` engine (plugins/engine/fetch.ts). */
import { expect } from 'bun:test';
import plugin from '../../../plugins/engine/fetch.ts';
import { testEngine } from '../suites/engine.ts';

testEngine(
  plugin,
  [
    { name: 'a JSON body keeps its bytes and bare content type', path: '/data.json', expect: (res) => {
      expect(res.contentType).toBe('application/json');
      expect(new TextDecoder().decode(res.body)).toBe('{"a":1}');
    } },
    { name: 'request headers are sent', path: '/echo', request: () => ({ headers: { 'x-contract': 'yes' } }), expect: (res) => expect(res.text).toBe('yes') },
  ],
  { '/echo': (req) => new Response(req.headers.get('x-contract') ?? '', { headers: { 'content-type': 'text/plain' } }) },
);
