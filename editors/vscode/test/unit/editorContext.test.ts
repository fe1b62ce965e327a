import { describe, expect, it } from 'vitest';
import { MAX_DIAGNOSTICS, buildContext } from '../../src/editorContext';

const uri = 'file:///home/dev/shop/cart/cart.go';
const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const diag = (line: number, severity = 1) => ({ range: r(line, 0, line, 5), message: `problem on ${line}`, severity });

describe('editor → parley/chat context', () => {
  it('a selection sends its range and the diagnostics that touch it', () => {
    const c = buildContext({ uri, relativePath: 'cart/cart.go', selection: r(9, 0, 16, 1), diagnostics: [diag(2), diag(12), diag(20)] });
    expect(c.context).toEqual({ uri, range: r(9, 0, 16, 1), diagnostics: [diag(12)] });
    expect(c.info).toEqual({ label: 'cart/cart.go:10-17', uri, diagnostics: 1 });
  });

  it('a selection ending at column 0 does not count that line', () => {
    expect(buildContext({ uri, relativePath: 'a.go', selection: r(3, 0, 5, 0), diagnostics: [] }).info.label).toBe('a.go:4-5');
    expect(buildContext({ uri, relativePath: 'a.go', selection: r(3, 2, 3, 9), diagnostics: [] }).info.label).toBe('a.go:4');
  });

  it('no selection: the file, with its errors and warnings', () => {
    const c = buildContext({ uri, relativePath: 'cart/cart.go', selection: r(4, 2, 4, 2), diagnostics: [diag(1, 1), diag(2, 2), diag(3, 3), diag(4, 4)] });
    expect(c.context.range).toBeUndefined();
    expect(c.context.diagnostics?.map((d) => d.severity)).toEqual([1, 2]);
    expect(c.info.label).toBe('cart/cart.go');
  });

  it('caps the diagnostics', () => {
    const many = Array.from({ length: 50 }, (_, i) => diag(i));
    expect(buildContext({ uri, relativePath: 'a', diagnostics: many }).context.diagnostics).toHaveLength(MAX_DIAGNOSTICS);
    expect(buildContext({ uri, relativePath: 'a', diagnostics: [] }).context.diagnostics).toBeUndefined();
  });
});
