/**
 * Interact `prompt` mode (interface.md "POST /v2/scrape/{scrapeId}/interact": a natural-language
 * instruction; compat.md §5 `output`): the configured model (core/llm, bound to the caller's team,
 * purpose `interact:prompt`) acts on the live page with tools (click,
 * type, press, goto, scroll, wait for an element, read the page, run JavaScript in the page), up to
 * `MAX_STEPS` turns, then answers in text, which becomes `output`. Tools run through the same page
 * API as `code` (page-api.ts), so the SSRF guard and proxy of the session apply.
 */
import type { Page } from 'puppeteer-core';
import { TrawlError } from '../errors.ts';
import type { LanguageModel, ModelMessage, ModelTool } from '../plugin.ts';
import { pageMarkdown } from './page-api.ts';

/** Most model turns per prompt. */
export const MAX_STEPS = 10;
/** Most page text shown to the model at once, characters. */
const PAGE_CHARS = 12_000;

const tool = (name: string, description: string, properties: Record<string, unknown> = {}, required: string[] = []): ModelTool => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required } },
});
const S = { type: 'string' };

const TOOLS: ModelTool[] = [
  tool('click', 'Click the first element matching a CSS selector.', { selector: S }, ['selector']),
  tool('type', 'Focus the element matching a CSS selector and type text into it.', { selector: S, text: S }, ['selector', 'text']),
  tool('press', 'Press a key such as Enter, Tab or ArrowDown.', { key: S }, ['key']),
  tool('goto', 'Open a URL in the page.', { url: S }, ['url']),
  tool('scroll', 'Scroll the page one screen up or down.', { direction: { type: 'string', enum: ['up', 'down'] } }),
  tool('wait_for', 'Wait until an element matching a CSS selector appears.', { selector: S }, ['selector']),
  tool('read_page', 'Read the current page as markdown, with its URL and title.'),
  tool('run_javascript', 'Run a JavaScript expression in the page and return its JSON value.', { expression: S }, ['expression']),
];

/** The call of the page API each tool maps to. */
function toPageCall(name: string, a: Record<string, unknown>): [string, unknown[]] | undefined {
  switch (name) {
    case 'click': return ['click', [a.selector]];
    case 'type': return ['type', [a.selector, a.text]];
    case 'press': return ['press', [a.key]];
    case 'goto': return ['goto', [a.url]];
    case 'scroll': return ['scroll', [a.direction === 'up' ? 'up' : 'down']];
    case 'wait_for': return ['waitForSelector', [a.selector, { timeout: 10_000 }]];
    case 'run_javascript': return ['evaluate', [`() => (${String(a.expression ?? 'undefined')})`, []]];
    default: return undefined;
  }
}

async function describePage(page: Page): Promise<string> {
  const markdown = await pageMarkdown(page).catch(() => '');
  const cut = markdown.length > PAGE_CHARS ? `${markdown.slice(0, PAGE_CHARS)}\n[page truncated]` : markdown;
  return `URL: ${page.url()}\nTitle: ${await page.title().catch(() => '')}\n\n${cut}`;
}

/**
 * Answers a prompt by acting on the live page.
 * @param call     runs one page API call (page-api.ts `callPage` bound to the session)
 * @param deadline epoch ms by which the answer must be ready
 * @returns the model's final text and the tokens used (prompt + completion)
 * @throws TrawlError UPSTREAM_ERROR / GATEWAY_TIMEOUT from the provider; SCRAPE_TIMEOUT past the deadline
 */
export async function answerPrompt(
  model: LanguageModel,
  page: Page,
  prompt: string,
  call: (method: string, args: unknown[]) => Promise<unknown>,
  deadline: number,
): Promise<{ output: string; tokens: number }> {
  const messages: ModelMessage[] = [
    {
      role: 'system',
      content:
        'You control a live web page in a browser for the user. Use the tools to act on the page (click, type, press keys, open URLs, scroll, read it, run JavaScript). ' +
        'When the task is done or the question is answered, reply with the answer as plain text and call no tool.',
    },
    { role: 'user', content: `${prompt}\n\n--- Current page ---\n${await describePage(page)}` },
  ];
  let tokens = 0;
  for (let step = 0; step < MAX_STEPS; step++) {
    const left = deadline - Date.now();
    if (left <= 0) throw new TrawlError('SCRAPE_TIMEOUT', 'The prompt was not answered within the time limit; raise "timeout" (seconds, at most 300).');
    const turn = await model.chat({ messages, tools: TOOLS, purpose: 'interact:prompt', signal: AbortSignal.timeout(left) });
    tokens += turn.usage.promptTokens + turn.usage.completionTokens;
    messages.push(turn.message);
    const calls = turn.message.tool_calls ?? [];
    if (calls.length === 0) return { output: turn.message.content ?? '', tokens };
    for (const c of calls) {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(c.function.arguments || '{}');
      } catch {
        // a malformed argument list is reported back to the model below
      }
      let content: string;
      try {
        if (c.function.name === 'read_page') content = await describePage(page);
        else {
          const mapped = toPageCall(c.function.name, args);
          content = mapped ? JSON.stringify((await call(mapped[0], mapped[1])) ?? 'done') : `Unknown tool ${c.function.name}`;
        }
      } catch (e) {
        content = `Error: ${(e as Error).message}`;
      }
      messages.push({ role: 'tool', tool_call_id: c.id, content: content.slice(0, PAGE_CHARS) });
    }
  }
  const last = [...messages].reverse().find((m) => m.role === 'assistant' && m.content);
  return { output: last?.content ?? `The task was not finished within ${MAX_STEPS} steps.`, tokens };
}
