/**
 * Merging the pages' answers of an extract (core/extract/merge.ts): the json format's chunk rules
 * (first non-null scalar wins, objects key by key, arrays concatenated and deduplicated) and the
 * sources of every field and array item.
 */
import { describe, expect, test } from 'bun:test';
import { mergePageAnswers } from '../../core/extract/merge.ts';

describe('mergePageAnswers', () => {
  test('first non-null scalar wins; objects merge by key; arrays concatenate without duplicates', () => {
    const { value, sources } = mergePageAnswers([
      { url: 'u1', value: { name: null, price: 10, tags: ['a', 'b'], maker: { name: 'Acme', city: null } } },
      { url: 'u2', value: { name: 'Widget', price: 12, tags: ['b', 'c'], maker: { city: 'Oslo' } } },
      { url: 'u3', value: null },
    ]);
    expect(value).toEqual({ name: 'Widget', price: 10, tags: ['a', 'b', 'c'], maker: { name: 'Acme', city: 'Oslo' } });
    expect(sources).toEqual({
      price: ['u1'],
      'tags[0]': ['u1'],
      'tags[1]': ['u1', 'u2'],
      'tags[2]': ['u2'],
      'maker.name': ['u1'],
      name: ['u2'],
      'maker.city': ['u2'],
    });
  });

  test('equal scalars list every page; no answer at all is null', () => {
    expect(mergePageAnswers([{ url: 'a', value: { n: 1 } }, { url: 'b', value: { n: 1 } }]).sources).toEqual({ n: ['a', 'b'] });
    expect(mergePageAnswers([{ url: 'a', value: null }])).toEqual({ value: null, sources: {} });
    expect(mergePageAnswers([])).toEqual({ value: null, sources: {} });
  });

  test('a root array merges like a field', () => {
    const { value, sources } = mergePageAnswers([{ url: 'a', value: [{ x: 1 }] }, { url: 'b', value: [{ x: 1 }, { x: 2 }] }]);
    expect(value).toEqual([{ x: 1 }, { x: 2 }]);
    expect(sources).toEqual({ '[0]': ['a', 'b'], '[1]': ['b'] });
  });
});
