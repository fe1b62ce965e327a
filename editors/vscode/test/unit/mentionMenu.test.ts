import { describe, expect, it } from 'vitest';
import type { ChatEvent, Mention } from '../../src/protocol';
import { insertMention, keptMentions, mentionQuery, mentions, urlMentions } from '../../src/webview/mentionMenu';
import { mentionChipText, splitMentions } from '../../src/webview/mentionText';
import { reduceAll } from '../../src/webview/state';

const file: Mention = { kind: 'file', text: '@src/net/http/server.go', path: 'src/net/http/server.go' };
const diag: Mention = { kind: 'diagnostics', text: '@diagnostics', scope: 'file', uri: 'file:///w/a.go' };
const sel: Mention = { kind: 'selection', text: '@selection' };
const url: Mention = { kind: 'url', text: '@url:' };

describe('the "@" menu', () => {
  it.each([
    ['@', 1, { start: 0, query: '' }],
    ['look at @serv', 13, { start: 8, query: 'serv' }],
    ['look at @serv and', 13, { start: 8, query: 'serv' }],
    ['(@diag', 6, { start: 1, query: 'diag' }],
    ['a\n@x', 4, { start: 2, query: 'x' }],
    ['mail me@example.com', 19, undefined],
    ['look at @serv and', 17, undefined],
    ['@url:https://go', 15, undefined],
    ['no mention', 10, undefined],
  ])('the query of %j at %i', (text, cursor, want) => {
    expect(mentionQuery(text, cursor)).toEqual(want);
  });

  it('inserts the mention text in place of the "@word", then a space', () => {
    expect(insertMention('see @serv', 9, { start: 4, query: 'serv' }, file)).toEqual({ text: 'see @src/net/http/server.go ', cursor: 28 });
    // The caret inside the word: the whole word goes; a space that follows is kept, not doubled.
    expect(insertMention('see @se now', 6, { start: 4, query: 's' }, diag)).toEqual({ text: 'see @diagnostics now', cursor: 16 });
    // "@url:" waits for the address.
    expect(insertMention('@u', 2, { start: 0, query: 'u' }, url)).toEqual({ text: '@url:', cursor: 5 });
  });

  it('finds a mention text only as a word of its own', () => {
    expect(mentions('why does @src/net/http/server.go fail?', file.text)).toBe(true);
    expect(mentions('see @src/net/http/server.go.', file.text)).toBe(true);
    expect(mentions('@src/net/http/server.go', file.text)).toBe(true);
    expect(mentions('see @src/net/http/server.go.orig', file.text)).toBe(false);
    expect(mentions('see x@src/net/http/server.go', file.text)).toBe(false);
    expect(mentions('nothing here', file.text)).toBe(false);
  });

  it('keeps on send the picked mentions still in the message, once each', () => {
    const picked = [file, diag, sel, file];
    expect(keptMentions('fix @src/net/http/server.go using @diagnostics', picked)).toEqual([file, diag]);
    expect(keptMentions('I deleted them all', picked)).toEqual([]);
  });

  it('turns a picked "@url:" into a url mention per address typed', () => {
    expect(urlMentions('read @url:https://go.dev/doc, then @url:https://pkg.go.dev')).toEqual([
      { kind: 'url', text: '@url:https://go.dev/doc', url: 'https://go.dev/doc' },
      { kind: 'url', text: '@url:https://pkg.go.dev', url: 'https://pkg.go.dev' },
    ]);
    expect(keptMentions('summarise @url:https://go.dev.', [url])).toEqual([{ kind: 'url', text: '@url:https://go.dev', url: 'https://go.dev' }]);
    expect(keptMentions('summarise @url:', [url])).toEqual([]);
  });
});

describe('the mentions event', () => {
  it('labels a chip with its token count, or its error', () => {
    expect(mentionChipText({ kind: 'file', text: '@a.go', label: 'a.go', tokens: 1234 })).toBe('a.go · 1,234 tokens');
    expect(mentionChipText({ kind: 'changes', text: '@changes', label: 'changes', tokens: 1 })).toBe('changes · 1 token');
    expect(mentionChipText({ kind: 'url', text: '@url:x', label: 'x', tokens: 0, error: 'fetch refused' })).toBe('x · fetch refused');
  });

  it('belongs to the turn of the user message it expands', () => {
    const reports = [{ kind: 'file', text: '@a.go', label: 'a.go', tokens: 12 }];
    const e: ChatEvent = { session: 's1', turn: 1, kind: 'mentions', mentions: reports };
    const s = reduceAll([{ type: 'userMessage', text: 'explain @a.go' }, { type: 'turnStart' }, { type: 'event', event: e }]);
    expect(s.turns).toHaveLength(1);
    expect(s.turns[0].user?.text).toBe('explain @a.go');
    expect(s.turns[0].mentions).toEqual(reports);
  });
});

describe('a reopened session', () => {
  it('shows a stored message without its expanded mention blocks, the blocks as chips', () => {
    const stored = 'explain @cart/fee.go and @changes\n\n<file path="cart/fee.go">\n1\tpackage cart\n</file>\n\n<changes label="changes">\ndiff --git a/x b/x\n</changes>';
    expect(splitMentions(stored)).toEqual({
      text: 'explain @cart/fee.go and @changes',
      mentions: [
        { kind: 'file', text: '@cart/fee.go', label: 'cart/fee.go', tokens: -1 },
        { kind: 'changes', text: '@changes', label: 'changes', tokens: -1 },
      ],
    });
    expect(mentionChipText({ kind: 'file', text: '@a.go', label: 'a.go', tokens: -1 })).toBe('a.go');
    expect(splitMentions('just <file path="x"> talk')).toEqual({ text: 'just <file path="x"> talk' });
  });
});
