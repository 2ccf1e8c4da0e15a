/**
 * Action types of the scrape options (interface.md "Action types"): TypeBox models, so the request
 * schema (core/http/models/scrape.ts) and the browser engine share one definition without either
 * importing the other. `type` is the discriminator.
 */
import { Type, type Static } from '@sinclair/typebox';

const Int = (opts: Record<string, unknown> = {}) => Type.Integer(opts);

/** Action types (interface.md "Action types"); `type` is the discriminator. */
export const ActionModels = {
  wait: Type.Object(
    {
      type: Type.Literal('wait'),
      milliseconds: Type.Optional(Int({ minimum: 1 })),
      selector: Type.Optional(Type.String({ minLength: 1 })),
    },
    { additionalProperties: false, description: 'Exactly one of milliseconds or selector.' },
  ),
  screenshot: Type.Object({
    type: Type.Literal('screenshot'),
    fullPage: Type.Optional(Type.Boolean()),
    quality: Type.Optional(Int({ minimum: 1, maximum: 100 })),
    viewport: Type.Optional(Type.Object({ width: Int({ minimum: 1, maximum: 7680 }), height: Int({ minimum: 1, maximum: 4320 }) })),
  }),
  click: Type.Object({ type: Type.Literal('click'), selector: Type.String({ minLength: 1 }), all: Type.Optional(Type.Boolean()) }),
  write: Type.Object({ type: Type.Literal('write'), text: Type.String() }),
  press: Type.Object({ type: Type.Literal('press'), key: Type.String({ minLength: 1 }) }),
  scroll: Type.Object({
    type: Type.Literal('scroll'),
    direction: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down')])),
    selector: Type.Optional(Type.String({ minLength: 1 })),
  }),
  scrape: Type.Object({ type: Type.Literal('scrape') }),
  executeJavascript: Type.Object({ type: Type.Literal('executeJavascript'), script: Type.String() }),
  pdf: Type.Object({
    type: Type.Literal('pdf'),
    format: Type.Optional(
      Type.Union(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'].map((f) => Type.Literal(f))),
    ),
    landscape: Type.Optional(Type.Boolean()),
    scale: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2 })),
  }),
};

export const Action = Type.Union(Object.values(ActionModels), { $id: undefined });
export type Action = Static<typeof Action>;
