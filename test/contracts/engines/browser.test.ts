/**
 * Contract cases of the `browser` engine (plugins/engine/browser.ts, real Chromium): the page as
 * rendered, and the captures formats ask for (screenshot, evaluate), actions and waitFor.
 */
import { expect } from 'bun:test';
import plugin from '../../../plugins/engine/browser.ts';
import { testEngine } from '../suites/engine.ts';

testEngine(
  plugin,
  [
    { name: 'the rendered DOM, scripts run', needs: ['js'], path: '/script', expect: (res) => expect(res.text).toContain('made by script') },
    {
      name: 'captures: a screenshot stored as a blob URL and a page script value',
      needs: ['screenshot', 'js'],
      path: '/page',
      request: () => ({ captures: { shot: { kind: 'screenshot' }, probe: { kind: 'evaluate', script: '() => document.title' } } }),
      expect: (res) => {
        expect(String(res.captures?.shot)).toMatch(/\/v2\/blobs\/[0-9a-f]{32}\.png$/);
        expect(res.captures?.probe).toBe('Contract');
      },
    },
    {
      name: 'actions run and report their results',
      needs: ['actions'],
      path: '/page',
      request: () => ({ options: { actions: [{ type: 'executeJavascript', script: 'return 6 * 7' }] } as never }),
      expect: (res) => expect(res.actions?.javascriptReturns[0]?.value).toBe(42),
    },
  ],
  { '/script': '<html><body><div id="t"></div><script>document.getElementById("t").textContent = "made by script"</script></body></html>' },
);
