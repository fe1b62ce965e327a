import { describe, expect, it } from 'vitest';
import { chatHtml, contentSecurityPolicy } from '../../src/chatHtml';

describe('chat page HTML', () => {
  const html = chatHtml({ cspSource: 'https://webview.test', nonce: 'abc123', scriptUri: 'https://webview.test/chat.js', styleUri: 'https://webview.test/chat.css' });

  it('allows only the nonced script and no remote images', () => {
    const csp = contentSecurityPolicy('https://webview.test', 'abc123');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'nonce-abc123'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toMatch(/img-src https:\/\/webview\.test data:(;|$)/);
    expect(html).toContain('<script nonce="abc123" src="https://webview.test/chat.js"></script>');
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('escapes what it interpolates', () => {
    const h = chatHtml({ cspSource: 'x', nonce: '"><script>', scriptUri: 'a"b', styleUri: 's' });
    expect(h).not.toContain('"><script>');
    expect(h).toContain('a&#34;b');
  });

  it('has the controls the page script needs', () => {
    for (const id of ['transcript', 'input', 'send', 'stop', 'new', 'history', 'sessions', 'context', 'approvals', 'notice', 'server', 'empty']) {
      expect(html).toContain(`id="${id}"`);
    }
  });
});
