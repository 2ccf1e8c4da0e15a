import { describe, expect, test } from 'bun:test';
import { knownShellHost, noteFetchedPage } from '../../core/pipeline/needs-js.ts';

describe('hosts that serve JavaScript shells', () => {
  test('two shells in a row send the host to the browser at once; a full page forgets it', () => {
    const url = (p: string) => `http://shells.example:8080/${p}`;
    expect(knownShellHost(url('a'))).toBe(false);
    noteFetchedPage(url('a'), true);
    expect(knownShellHost(url('b'))).toBe(false); // one shell may be a single odd page
    noteFetchedPage(url('b'), true);
    expect(knownShellHost(url('c'))).toBe(true);
    expect(knownShellHost('http://shells.example:9090/c')).toBe(false); // another port is another site
    expect(knownShellHost('http://other.example:8080/c')).toBe(false);
    noteFetchedPage(url('d'), false);
    expect(knownShellHost(url('e'))).toBe(false);
  });

  test('a page between shells starts the count again', () => {
    const url = (p: string) => `https://mixed.example/${p}`;
    noteFetchedPage(url('a'), true);
    noteFetchedPage(url('b'), false);
    noteFetchedPage(url('c'), true);
    expect(knownShellHost(url('x'))).toBe(false);
    noteFetchedPage('not a url', true); // ignored
  });
});
