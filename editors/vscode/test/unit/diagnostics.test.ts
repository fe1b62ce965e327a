import { describe, expect, it } from 'vitest';
import { DiagnosticsAnswerer, FIRST_REPORT_MS, type LspDiagnostic, QUIET_MS, toLspDiagnostic } from '../../src/diagnostics';

const uri = 'file:///w/a.go';
const typeError: LspDiagnostic = {
  range: { start: { line: 3, character: 32 }, end: { line: 3, character: 39 } },
  severity: 1,
  source: 'compiler',
  message: 'cannot use 1 (untyped int constant) as string value in return statement',
};

/** A fake VS Code: a document's version and diagnostics, set by the test. */
function host() {
  const h = {
    versions: new Map<string, number>([[uri, 1]]),
    diags: new Map<string, LspDiagnostic[]>(),
    languages: new Map<string, string>(),
    diagnostics: (u: string) => h.diags.get(u) ?? [],
    language: (u: string) => h.languages.get(u),
    version: (u: string) => h.versions.get(u),
    uriKey: (u: string) => u,
  };
  return h;
}

describe('parley/diagnostics', () => {
  it('without a version answers at once with what the editor has', async () => {
    const h = host();
    h.diags.set(uri, [typeError]);
    const a = new DiagnosticsAnswerer(h);
    const start = Date.now();
    const r = await a.answer({ uris: [uri, 'file:///w/b.go'], timeoutMs: 2000 });
    expect(Date.now() - start).toBeLessThan(500);
    expect(r.items).toEqual([
      { uri, diagnostics: [typeError], settled: true },
      { uri: 'file:///w/b.go', diagnostics: [], settled: true },
    ]);
  });

  it('with the edit\'s version waits until the language servers analysed it', async () => {
    const h = host();
    const a = new DiagnosticsAnswerer(h);
    a.changed([uri]); // diagnostics of version 1, before the edit
    h.versions.set(uri, 2); // the agent's edit
    const pending = a.answer({ uris: [uri], version: 2, timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 100));
    h.diags.set(uri, [typeError]); // the server publishes for version 2
    a.changed([uri]);
    const start = Date.now();
    const r = await pending;
    expect(Date.now() - start).toBeGreaterThanOrEqual(QUIET_MS - 30);
    expect(r.items).toEqual([{ uri, diagnostics: [typeError], settled: true }]);
  });

  it('says when the servers did not settle within the timeout', async () => {
    const h = host();
    const a = new DiagnosticsAnswerer(h);
    a.changed([uri]); // a server reports on this document
    h.versions.set(uri, 3);
    const r = await a.answer({ uris: [uri], version: 3, timeoutMs: 200 });
    expect(r.items).toEqual([{ uri, diagnostics: [], settled: false }]);
  });

  it('a document nothing ever reported on is given a second, not the whole timeout', async () => {
    const h = host();
    h.versions.set(uri, 2);
    const a = new DiagnosticsAnswerer(h);
    const start = Date.now();
    const r = await a.answer({ uris: [uri], version: 2, timeoutMs: 10_000 });
    expect(Date.now() - start).toBeLessThan(FIRST_REPORT_MS + 500);
    expect(r.items).toEqual([{ uri, diagnostics: [], settled: true }]);
  });

  it('a new document of a language with reports is waited for beyond that second', async () => {
    const h = host();
    const other = 'file:///w/b.go';
    h.languages.set(uri, 'go').set(other, 'go');
    const a = new DiagnosticsAnswerer(h);
    a.changed([other]);
    h.versions.set(uri, 1);
    const pending = a.answer({ uris: [uri], version: 1, timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, FIRST_REPORT_MS + 300));
    h.diags.set(uri, [typeError]);
    a.changed([uri]);
    expect((await pending).items).toEqual([{ uri, diagnostics: [typeError], settled: true }]);
  });

  it('a new document whose first report comes within that second is waited for', async () => {
    const h = host();
    h.versions.set(uri, 1);
    const a = new DiagnosticsAnswerer(h);
    const pending = a.answer({ uris: [uri], version: 1, timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 300));
    h.diags.set(uri, [typeError]);
    a.changed([uri]);
    expect((await pending).items).toEqual([{ uri, diagnostics: [typeError], settled: true }]);
  });

  it('stops waiting when the request is cancelled', async () => {
    const h = host();
    const a = new DiagnosticsAnswerer(h);
    a.changed([uri]);
    const token = { isCancellationRequested: false };
    const pending = a.answer({ uris: [uri], version: 9, timeoutMs: 10_000 }, token);
    token.isCancellationRequested = true;
    const r = await pending;
    expect(r.items[0].settled).toBe(false);
  });

  it('tolerates malformed params', async () => {
    const a = new DiagnosticsAnswerer(host());
    await expect(a.answer({} as never)).resolves.toEqual({ items: [] });
    await expect(a.answer({ uris: [uri, 3 as never], version: 'x' as never })).resolves.toEqual({
      items: [{ uri, diagnostics: [], settled: true }],
    });
  });

  it('converts VS Code diagnostics to LSP ones', () => {
    const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } };
    expect(toLspDiagnostic({ range, severity: 1, source: 'ts', code: { value: 2322 }, message: 'no' })).toEqual({
      range,
      severity: 2,
      source: 'ts',
      code: 2322,
      message: 'no',
    });
    expect(toLspDiagnostic({ range, severity: 0, message: 'bad' })).toEqual({ range, severity: 1, message: 'bad' });
  });
});
