import { describe, expect, it } from 'vitest';
import { StatusModel, compact, tokenKind } from '../../src/status';
import { compactFixture, sessionsFixture, turnFixture } from '../fixtures';

function running(): StatusModel {
  const m = new StatusModel();
  m.setServer('running');
  return m;
}

describe('$/progress and parley/indexStatus → status bar', () => {
  it('tells index and chat tokens apart', () => {
    expect(tokenKind('parley/index/1')).toBe('index');
    expect(tokenKind('parley/chat/12')).toBe('chat');
    expect(tokenKind('parley/compact/3')).toBe('compact');
    expect(tokenKind(7)).toBe('other');
  });

  it('shows the recorded index run, then the counts', () => {
    const f = sessionsFixture();
    const m = running();
    const [begin, report, end] = f.indexProgress;
    m.progress(begin.token, begin.value);
    expect(m.view()).toMatchObject({ text: '$(sync~spin) parley 0%', busy: true });
    m.progress(report.token, report.value);
    expect(m.view().text).toBe('$(sync~spin) parley 89% 1/2 files');
    expect(m.view().tooltip).toContain('Indexing shop: 1/2 files (89%)');
    expect(m.indexing()).toBe(true);
    m.progress(end.token, end.value);
    expect(m.indexing()).toBe(false);
    m.setIndexStatus(f.indexStatus);
    expect(m.view()).toMatchObject({ text: '$(database) parley 2 files · 5 symbols', busy: false, warning: false });
    expect(m.view().tooltip).toContain('/home/dev/shop: 2 files, 5 symbols');
  });

  it('shows a running chat with the tool it calls', () => {
    const m = running();
    m.setIndexStatus({ files: 11478, symbols: 370142, indexing: false });
    const p = turnFixture('tool-edit').progress;
    m.progress(p[0].token, p[0].value);
    m.progress(p[1].token, p[1].value);
    expect(m.view().text).toBe('$(database) parley 11.4k files · 370k symbols  $(loading~spin) agent read_file');
    expect(m.view().tooltip).toContain('Agent running: Fix it so Qty counts. (read_file)');
    m.progress(p[2].token, p[2].value);
    expect(m.view().text).toBe('$(database) parley 11.4k files · 370k symbols');
    // A turn without progress (the client counts its own requests).
    m.setChatsRunning(1);
    expect(m.view().text).toContain('$(loading~spin) agent');
  });

  it('shows the agent busy while parley/compact runs', () => {
    const m = running();
    m.setIndexStatus({ files: 2, symbols: 5, indexing: false });
    const [begin, end] = compactFixture().progress;
    m.progress(begin.token, begin.value);
    expect(m.view()).toMatchObject({ text: '$(database) parley 2 files · 5 symbols  $(loading~spin) agent', busy: true });
    expect(m.view().tooltip).toContain('Agent running: compacting the conversation');
    m.progress(end.token, end.value);
    expect(m.view()).toMatchObject({ text: '$(database) parley 2 files · 5 symbols', busy: false });
  });

  it('warns on an indexing error and on a stopped server', () => {
    const m = running();
    m.setIndexStatus({ files: 10, symbols: 3, indexing: false, lastError: 'open x: permission denied' });
    expect(m.view()).toMatchObject({ warning: true, text: '$(warning) parley 10 files' });
    expect(m.view().tooltip).toContain('permission denied');
    m.setServer('stopped', 'spawn parley ENOENT');
    expect(m.view()).toMatchObject({ text: '$(error) parley', warning: true });
    expect(m.view().tooltip).toContain('ENOENT');
  });

  it('shows starting, and forgets progress when the server stops', () => {
    const m = new StatusModel();
    expect(m.view().text).toBe('$(loading~spin) parley');
    m.setServer('running');
    m.progress('parley/index/1', { kind: 'begin', title: 'Indexing', percentage: 5 });
    m.setServer('stopped');
    m.setServer('running');
    expect(m.indexing()).toBe(false);
  });

  it('compact numbers', () => {
    expect([0, 950, 1000, 11478, 99999, 370142, 1_234_567].map(compact)).toEqual(['0', '950', '1k', '11.4k', '99.9k', '370k', '1.2M']);
  });
});
