/**
 * The agent loop (issue 19): the model is given the task and the tools (core/agent/tools.ts) and
 * calls them turn by turn until it answers without a tool call. Bounded three ways, each checked
 * before the step it would pass:
 * - credits: a model turn costs 1 credit per started 1,000 tokens (at least 1) and a tool what its
 *   endpoint costs; a step that could pass `maxCredits` is not started (`max_credits`);
 * - steps: at most `maxSteps` tool calls (from `effort`; `max_steps`);
 * - time: `AGENT_MAX_RUNTIME_MS` (`timeout`);
 * - the team's balance, read before each model turn (`no_credits`).
 * A cancel aborts `signal`: the model call or tool in flight stops and the loop throws.
 * With a schema the answer must be JSON valid against it; a wrong answer gets one repair turn.
 */
import type { LanguageModel, ModelMessage } from '../plugin.ts';
import { TrawlError } from '../errors.ts';
import { compileSchema, describeErrors, parseModelJson } from '../llm/schema.ts';
import type { AgentRequest } from './options.ts';
import { MAX_TOOL_TEXT, type AgentTool, type ToolContext, type ToolOutcome } from './tools.ts';
import type { StopReason } from './store.ts';

/** Credits of a model turn per started 1,000 tokens (prompt and completion). */
export const MODEL_CREDITS_PER_1K_TOKENS = 1;
/** Longest run, ms. */
export const AGENT_MAX_RUNTIME_MS = 30 * 60_000;
/** Tool calls of one turn run; more are answered "not run" (each still counts). */
const MAX_CALLS_PER_TURN = 5;
/** Characters of conversation kept before old tool answers are shortened (about 3 characters per token). */
const CHARS_PER_TOKEN = 3;

/** Credits of one model turn. */
export function turnCredits(tokens: number): number {
  return Math.max(1, Math.ceil(tokens / 1000)) * MODEL_CREDITS_PER_1K_TOKENS;
}

/** A finished step, as the loop reports it (the worker records and announces it). */
export interface LoopStep {
  kind: 'model' | 'tool';
  tool?: string;
  input?: unknown;
  summary: string;
  ok: boolean;
  credits: number;
  tokens: number;
}

export interface LoopDeps {
  model: LanguageModel;
  request: AgentRequest;
  tools: Map<string, AgentTool>;
  /** Tool context without the step number (set per call). */
  toolContext: Omit<ToolContext, 'seq'>;
  signal: AbortSignal;
  /** What an earlier attempt of the run spent (a run resumed after a lost worker). */
  spent: { toolCalls: number; credits: number };
  /** The team's credit balance now (the run stops when it cannot pay its next step); undefined: not checked. */
  balance?: () => Promise<number>;
  /** Records a step; returns its number. Called before the next step starts. */
  onStep(step: LoopStep): Promise<number>;
  now?: () => number;
}

export interface LoopOutcome {
  reason: StopReason;
  data?: unknown;
  message?: string;
  /** Why the run stopped early, for `error` (budgets) or a note. */
  note?: string;
  toolCalls: number;
  credits: number;
}

function systemPrompt(r: AgentRequest, tools: string[]): string {
  const lines = [
    'You are a web research agent. Use the tools to find what the task asks for, then answer.',
    `Tools: ${tools.join(', ')}. Call them as needed; when you have the answer, reply without calling a tool.`,
    `Budget: at most ${r.maxSteps} tool calls and ${r.maxCredits} credits (a page costs about 1, an extract page 5, a search 2).`,
  ];
  if (r.strictConstrainToURLs) lines.push(`Stay within these URLs and the pages under them: ${r.urls.join(' ')}`);
  if (r.mode === 'chat') lines.push('Answer in plain text.');
  else if (r.schema) lines.push(`Answer with one JSON value and nothing else, valid against this JSON Schema:\n${JSON.stringify(r.schema)}`);
  else lines.push('Answer with one JSON object holding what was found, and nothing else.');
  return lines.join('\n');
}

function userPrompt(r: AgentRequest): string {
  return r.urls.length ? `${r.prompt}\n\nStart from these URLs:\n${r.urls.join('\n')}` : r.prompt;
}

/**
 * Shortens the oldest tool answers while the conversation is longer than the model's context allows;
 * the answers of the last turn are kept (the model has not read them yet).
 */
function fitContext(messages: ModelMessage[], contextTokens: number): void {
  const budget = contextTokens * CHARS_PER_TOKEN * 0.7;
  let total = messages.reduce((s, m) => s + (m.content?.length ?? 0), 0);
  let lastTurn = messages.length;
  while (lastTurn > 0 && messages[lastTurn - 1]!.role === 'tool') lastTurn--;
  for (const m of messages.slice(0, lastTurn)) {
    if (total <= budget) return;
    if (m.role !== 'tool' || (m.content?.length ?? 0) < 200) continue;
    total -= m.content!.length - 40;
    m.content = '[shortened: an earlier tool answer]';
  }
}

/** Most characters of one tool answer for a model with this context: a third of it, at most MAX_TOOL_TEXT. */
function toolTextLimit(contextTokens: number): number {
  return Math.max(1000, Math.min(MAX_TOOL_TEXT, Math.floor((contextTokens * CHARS_PER_TOKEN) / 3)));
}

/** Reads the final answer. @returns the value or the problem to show the model */
function readAnswer(r: AgentRequest, text: string): { value?: unknown; problem?: string } {
  if (r.mode === 'chat') return text.trim() ? { value: text.trim() } : { problem: 'the answer is empty' };
  const parsed = parseModelJson(text);
  if (parsed.error !== undefined) return r.schema ? { problem: parsed.error } : { value: { answer: text.trim() } };
  if (r.schema) {
    const validate = compileSchema(r.schema);
    if (!validate(parsed.value)) return { problem: `the JSON does not match the schema: ${describeErrors(validate).join('; ')}` };
  }
  return { value: parsed.value };
}

/**
 * Runs the loop until an answer or a budget.
 * @throws the signal's reason when cancelled; TrawlError UPSTREAM_ERROR / GATEWAY_TIMEOUT from the
 *         model; MODEL_OUTPUT_INVALID when the answer fails its schema after the repair turn
 */
export async function runAgentLoop(deps: LoopDeps): Promise<LoopOutcome> {
  const { model, request: r, tools, signal } = deps;
  const now = deps.now ?? Date.now;
  const started = now();
  let toolCalls = deps.spent.toolCalls;
  let credits = deps.spent.credits;
  let repaired = false;
  const defs = [...tools.values()].map((t) => t.def);
  const messages: ModelMessage[] = [
    { role: 'system', content: systemPrompt(r, [...tools.keys()]) },
    { role: 'user', content: userPrompt(r) },
  ];
  const stop = (reason: StopReason, note: string): LoopOutcome => ({ reason, note, toolCalls, credits });
  const checkCancel = () => {
    if (signal.aborted) throw signal.reason ?? new TrawlError('SCRAPE_JOB_CANCELLED', 'The agent run was cancelled.');
  };

  for (;;) {
    checkCancel();
    if (now() - started > AGENT_MAX_RUNTIME_MS) return stop('timeout', `the run reached its time limit of ${AGENT_MAX_RUNTIME_MS / 60_000} minutes`);
    if (credits + turnCredits(0) > r.maxCredits) return stop('max_credits', `it used ${credits} of its maxCredits ${r.maxCredits}`);
    if (deps.balance && (await deps.balance()) < turnCredits(0)) return stop('no_credits', `the team has no credits left (the run used ${credits})`);
    fitContext(messages, model.contextTokens);
    const turn = await model.chat({ messages, tools: defs, purpose: 'agent', signal });
    const tokens = turn.usage.promptTokens + turn.usage.completionTokens;
    const calls = turn.message.tool_calls ?? [];
    const cost = turnCredits(tokens);
    credits += cost;
    await deps.onStep({ kind: 'model', summary: calls.length ? `called ${calls.map((c) => c.function.name).join(', ')}` : 'answered', ok: true, credits: cost, tokens });
    checkCancel();

    if (calls.length === 0) {
      const answer = readAnswer(r, turn.message.content ?? '');
      if (answer.problem === undefined) {
        return { reason: 'answered', ...(r.mode === 'chat' ? { message: String(answer.value) } : { data: answer.value }), toolCalls, credits };
      }
      if (repaired) throw new TrawlError('MODEL_OUTPUT_INVALID', `The agent's answer is not valid even after a repair turn: ${answer.problem.slice(0, 1000)}`);
      repaired = true;
      messages.push({ role: 'assistant', content: (turn.message.content ?? '').slice(0, 20_000) });
      messages.push({ role: 'user', content: `Your answer cannot be used: ${answer.problem}. Answer again with only the corrected JSON.` });
      continue;
    }

    messages.push({ role: 'assistant', content: turn.message.content ?? null, tool_calls: calls });
    for (const [i, call] of calls.entries()) {
      checkCancel();
      const reply = (content: string) => messages.push({ role: 'tool', tool_call_id: call.id, content: content.slice(0, toolTextLimit(model.contextTokens)) });
      if (toolCalls >= r.maxSteps) return stop('max_steps', `it made ${toolCalls} tool calls, its step budget (effort ${r.effort ?? 'medium'})`);
      const tool = tools.get(call.function.name);
      let args: Record<string, any> = {};
      try {
        const parsed = JSON.parse(call.function.arguments || '{}');
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed;
      } catch {
        // answered below as bad arguments
      }
      if (!tool || i >= MAX_CALLS_PER_TURN) {
        toolCalls++;
        const why = tool ? `at most ${MAX_CALLS_PER_TURN} tool calls are run per turn` : `there is no tool "${call.function.name}" (tools: ${[...tools.keys()].join(', ')})`;
        reply(`Error: not run: ${why}.`);
        await deps.onStep({ kind: 'tool', tool: call.function.name.slice(0, 64), input: args, summary: `not run: ${why}`, ok: false, credits: 0, tokens: 0 });
        continue;
      }
      const least = tool.minCredits(args, r, deps.toolContext.services);
      if (credits + least > r.maxCredits) {
        return stop('max_credits', `it used ${credits} of its maxCredits ${r.maxCredits} and the next ${tool.def.function.name} would cost at least ${least}`);
      }
      toolCalls++;
      const seq = toolCalls;
      const outcome: ToolOutcome = await tool.run(args, { ...deps.toolContext, seq });
      credits += outcome.credits;
      reply(outcome.text);
      await deps.onStep({ kind: 'tool', tool: tool.def.function.name, input: args, summary: outcome.summary, ok: outcome.ok, credits: outcome.credits, tokens: 0 });
    }
  }
}
