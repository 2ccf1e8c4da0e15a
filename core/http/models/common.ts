/**
 * Shared response models: the error envelope (compat.md §1.4) and the Document (compat.md §3), used
 * for the OpenAPI document.
 */
import { Type } from '@sinclair/typebox';

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.Optional(Type.String()),
    error: Type.String(),
    details: Type.Optional(Type.Unknown()),
  },
  { $id: '#/components/schemas/Error', description: 'Error envelope (compat.md §1.4)' },
);

export const DocumentModel = Type.Object(
  {
    markdown: Type.Optional(Type.String()),
    html: Type.Optional(Type.String()),
    rawHtml: Type.Optional(Type.String()),
    links: Type.Optional(Type.Array(Type.String())),
    screenshot: Type.Optional(Type.String()),
    actions: Type.Optional(Type.Unknown()),
    warning: Type.Optional(Type.String()),
    metadata: Type.Object(
      {
        sourceURL: Type.String(),
        url: Type.String(),
        statusCode: Type.Integer(),
        scrapeId: Type.String(),
        title: Type.Optional(Type.Unknown()),
        description: Type.Optional(Type.Unknown()),
        language: Type.Optional(Type.Unknown()),
        contentType: Type.Optional(Type.String()),
        creditsUsed: Type.Optional(Type.Number()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, description: 'A scraped document (compat.md §3)' },
);

export const errorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  402: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  408: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
};
