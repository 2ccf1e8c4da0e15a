/**
 * The `attributes` format (compat.md §2.1): `selectors [{selector, attribute}]` in, `attributes
 * [{selector, attribute, values[]}]` out, one entry per requested pair in request order: the values
 * of `attribute` on every element of the whole raw page matching the CSS `selector` (css-select), in
 * document order; elements without the attribute are skipped, and `values` is `[]` when nothing
 * matches. An invalid selector is a 400 naming it, before anything is fetched.
 */
import { Type, type Static } from '@sinclair/typebox';
import { selectAll } from 'css-select';
import { defineFormat } from '../core/plugin.ts';
import { parseHtml, type Element, type ParentNode } from '../core/html/dom.ts';
import { MAX_SELECTORS, validateSelectors } from '../core/html/selectors.ts';

const Options = Type.Object(
  {
    selectors: Type.Array(
      Type.Object({ selector: Type.String({ minLength: 1, maxLength: 1000 }), attribute: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
      { minItems: 1, maxItems: MAX_SELECTORS },
    ),
  },
  { additionalProperties: false },
);

type Options = Static<typeof Options>;

export default defineFormat<Options>({
  name: 'attributes',
  stringForm: false,
  options: Options,
  pure: true,
  validate: (o) => validateSelectors(o.selectors.map((s) => s.selector), 'attributes.selectors'),
  produce(input, options) {
    const html = input.rawHtml() ?? input.parsed.html ?? '';
    const doc = html ? parseHtml(html) : undefined;
    const attributes = options.selectors.map(({ selector, attribute }) => {
      const values: string[] = [];
      if (doc) {
        for (const el of selectAll<ParentNode, Element>(selector, doc)) {
          const v = el.attribs[attribute];
          if (v !== undefined) values.push(v);
        }
      }
      return { selector, attribute, values };
    });
    return { attributes };
  },
});
