/**
 * A fake OpenAI-compatible chat completions API for the interact tests (test-only code): a Bun server
 * on 127.0.0.1 answering `POST /v1/chat/completions` deterministically. On the first turn it turns
 * the instructions of the prompt into tool calls (`type "text" into <selector>`, `click <selector>`,
 * `press <key>`); once tool results came back, or when the prompt asks for nothing, it answers with
 * text naming the page title it was shown and how many tools ran. Every request is recorded.
 */

export interface FakeChat {
  /** Base URL to use as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: { headers: Headers; body: any }[];
  stop(): void;
}

export function startFakeChat(): FakeChat {
  const requests: FakeChat['requests'] = [];
  let n = 0;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') return new Response('not found', { status: 404 });
      const body = (await req.json()) as { model: string; messages: { role: string; content: string | null }[]; tools?: unknown[] };
      requests.push({ headers: req.headers, body });
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      const prompt = user.split('\n\n--- Current page ---')[0] ?? '';
      const title = /^Title: (.*)$/m.exec(user)?.[1] ?? '';
      const toolResults = body.messages.filter((m) => m.role === 'tool');
      const steps = [...prompt.matchAll(/type "([^"]*)" into (\S+)|click (\S+)|press (\w+)/g)];
      const reply = (message: Record<string, unknown>) =>
        Response.json({
          id: `chatcmpl-${++n}`,
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
        });
      if (toolResults.length === 0 && steps.length > 0 && body.tools?.length) {
        return reply({
          content: null,
          tool_calls: steps.map((m, i) => {
            const [name, args] = m[1] !== undefined ? ['type', { text: m[1], selector: m[2] }] : m[3] ? ['click', { selector: m[3] }] : ['press', { key: m[4] }];
            return { id: `call_${n}_${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } };
          }),
        });
      }
      return reply({ content: `The page title is "${title}". Tools run: ${toolResults.length}.` });
    },
  });
  return { baseUrl: `http://127.0.0.1:${server.port}/v1`, requests, stop: () => server.stop(true) };
}
