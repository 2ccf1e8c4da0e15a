/**
 * Request and response models of the support endpoints (interface.md "Support records"; compat.md §16).
 */
import { t } from 'elysia';

/** Longest question, characters (interface.md "Support records"). */
export const SUPPORT_QUESTION_MAX = 8000;

const Question = t.String({ minLength: 1, maxLength: SUPPORT_QUESTION_MAX, description: 'The question, 1 to 8000 characters' });

export const SupportModels = {
  askRequest: t.Object({
    question: Question,
    rationale: t.Optional(t.String({ maxLength: SUPPORT_QUESTION_MAX })),
    context: t.Optional(t.Record(t.String(), t.Unknown())),
  }),
  askResponse: t.Object({
    requestId: t.String(),
    answer: t.String(),
    confidence: t.Union([t.Literal('high'), t.Literal('medium'), t.Literal('low')]),
    fixParameters: t.Record(t.String(), t.Unknown(), { description: 'Parameters to merge into the next call' }),
    validation: t.Object({ tested: t.Boolean(), result: t.String(), evidence: t.String() }),
    feedback: t.Union([t.Null(), t.Record(t.String(), t.Unknown())]),
    durationMs: t.Integer(),
  }),
  docsRequest: t.Object({ question: Question }),
  docsResponse: t.Object({
    requestId: t.String(),
    answer: t.String(),
    evidence: t.Array(t.Object({ pathOrUrl: t.String(), reason: t.String() })),
    usage: t.Object({ inputTokens: t.Integer(), outputTokens: t.Integer(), totalTokens: t.Integer() }),
    durationMs: t.Integer(),
  }),
};
