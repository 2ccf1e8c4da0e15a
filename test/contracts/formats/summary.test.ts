/** Contract cases of the `summary` format (formats/summary.ts): extractive with no model, the model's with one. */
import { expect } from 'bun:test';
import plugin from '../../../formats/summary.ts';
import { testFormat } from '../suites/format.ts';
import { scriptedModel } from '../../model-formats/scripted-model.ts';

const page = '<main><h1>Tides</h1><p>Tides are the rise and fall of sea levels caused by the moon and the sun. The moon pulls the water of the oceans toward it.</p><p>Most coasts see two high tides a day. Spring tides happen when the sun and moon line up.</p><nav>Home | About</nav></main>';

testFormat(plugin, [
  {
    name: 'no model: page sentences in page order, warning, modelUsed false',
    page,
    expect: (doc) => {
      expect(typeof doc.summary).toBe('string');
      for (const s of (doc.summary as string).split(/(?<=\.) /)) expect(page).toContain(s);
      expect(doc.summary as string).toContain('Tides are the rise and fall');
      expect(doc.warning).toMatch(/No language model is configured/);
      expect((doc.metadata as Record<string, unknown>).modelUsed).toBe(false);
    },
  },
  { name: 'no prose: null', page: '<main><h1>Only a title</h1></main>', expect: (doc) => expect(doc.summary).toBeNull() },
  {
    name: 'with a model: its summary, no warning, modelUsed true',
    page,
    model: scriptedModel(() => 'Tides are caused by the moon.'),
    expect: (doc) => {
      expect(doc.summary).toBe('Tides are caused by the moon.');
      expect(doc.warning).toBeUndefined();
      expect((doc.metadata as Record<string, unknown>).modelUsed).toBe(true);
    },
  },
]);
