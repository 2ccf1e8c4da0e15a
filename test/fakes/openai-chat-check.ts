/**
 * The request checks of the fake chat server (test-only): what a strict OpenAI-compatible server
 * refuses with a 400. A model name; at least one message, each with a known role, string content
 * (null only for an assistant's tool calls); every tool message answering a tool call of an earlier
 * assistant message; `response_format` of a known type, a `json_schema` one with a valid name and an
 * object schema, a `json_object` one only when a message mentions JSON; tools with a name and object
 * parameters; a positive integer `max_tokens`.
 */

export interface ChatBody {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
  max_tokens?: number;
  temperature?: number;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool', 'developer']);

/** Problems of one request (empty: fine). */
export function checkRequest(body: ChatBody): string[] {
  const out: string[] = [];
  if (typeof body !== 'object' || body === null) return ['the body is not an object'];
  if (typeof body.model !== 'string' || !body.model) out.push('model must be a non-empty string');
  if (!Array.isArray(body.messages) || body.messages.length === 0) return [...out, 'messages must be a non-empty array'];
  const callIds = new Set<string>();
  body.messages.forEach((m, i) => {
    if (!ROLES.has(m?.role)) out.push(`messages[${i}].role "${m?.role}" is not a role`);
    const toolCalls = m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (typeof m.content !== 'string' && !(m.content === null && toolCalls)) out.push(`messages[${i}].content must be a string`);
    for (const c of m.tool_calls ?? []) {
      if (typeof c.id !== 'string' || c.type !== 'function' || typeof c.function?.name !== 'string' || typeof c.function?.arguments !== 'string') {
        out.push(`messages[${i}].tool_calls has a malformed call`);
      } else callIds.add(c.id);
    }
    if (m.role === 'tool' && !callIds.has(m.tool_call_id ?? '')) out.push(`messages[${i}] answers no earlier tool call (tool_call_id "${m.tool_call_id}")`);
  });
  const rf = body.response_format;
  if (rf !== undefined) {
    if (!['text', 'json_object', 'json_schema'].includes(rf?.type)) out.push(`response_format.type "${rf?.type}" is unknown`);
    if (rf.type === 'json_schema') {
      if (!/^[a-zA-Z0-9_-]{1,64}$/.test(rf.json_schema?.name ?? '')) out.push(`response_format.json_schema.name "${rf.json_schema?.name}" is invalid`);
      const schema = rf.json_schema?.schema;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) out.push('response_format.json_schema.schema must be an object');
    }
    if (rf.type === 'json_object' && !body.messages.some((m) => /json/i.test(m.content ?? ''))) {
      out.push("'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'");
    }
  }
  for (const [i, t] of (body.tools ?? []).entries()) {
    if (t?.type !== 'function' || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.function?.name ?? '')) out.push(`tools[${i}] is malformed`);
    const p = t?.function?.parameters;
    if (p !== undefined && (typeof p !== 'object' || p === null)) out.push(`tools[${i}].function.parameters must be an object`);
  }
  if (body.max_tokens !== undefined && (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)) out.push('max_tokens must be a positive integer');
  return out;
}
