// The context of a completion (parley/completionContext) as the markdown
// "parley: Show Completion Context" opens: the prefix, the suffix and each
// snippet with its path, lines and why the server chose it.

import { type CompletionClient, INVALID_PARAMS, type LastCompletion, METHOD_NOT_FOUND } from './completion';
import { type CompletionContextResult, Methods } from './protocol';

const LANGUAGES: Record<string, string> = {
  go: 'go',
  py: 'python',
  ts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'jsx',
  mjs: 'javascript',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  php: 'php',
  swift: 'swift',
  lua: 'lua',
  sh: 'sh',
};

function fenceLanguage(path: string | undefined): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path ?? '')?.[1]?.toLowerCase();
  return (ext && LANGUAGES[ext]) ?? '';
}

/** A code block whose fence is longer than any run of backticks in text. */
function codeBlock(text: string, language: string): string {
  let longest = 2;
  for (const m of text.matchAll(/`+/g)) {
    longest = Math.max(longest, m[0].length);
  }
  const fence = '`'.repeat(longest + 1);
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${fence}${language}\n${body}${fence}\n`;
}

/** The markdown shown by parley: Show Completion Context. */
export function contextMarkdown(r: CompletionContextResult, fallback: { id?: string | number; languageId?: string } = {}): string {
  const id = r.id ?? fallback.id;
  const lang = r.path ? fenceLanguage(r.path) : (fallback.languageId ?? '');
  const snippets = r.context ?? [];
  const out: string[] = [];
  out.push(`# Context of completion${id !== undefined ? ` ${id}` : ''}`, '');
  const facts: string[] = [];
  if (r.path) {
    facts.push(`\`${r.path}\``);
  }
  if (typeof r.tokens === 'number') {
    facts.push(`${r.tokens.toLocaleString('en-US')} tokens`);
  }
  facts.push(`${snippets.length} context snippet${snippets.length === 1 ? '' : 's'}`);
  out.push(facts.join(' · '), '');
  out.push('What the completion model was given: the snippets first, then the text before the cursor (prefix) and after it (suffix).', '');
  if (snippets.length > 0) {
    out.push('## Context', '');
    for (const s of snippets) {
      out.push(`### \`${s.path}:${s.start_line}-${s.end_line}\`${s.why ? ` — ${s.why}` : ''}`, '');
      out.push(codeBlock(s.text, fenceLanguage(s.path)));
    }
  }
  out.push('## Prefix', '');
  out.push(r.prefix ? codeBlock(r.prefix, lang) : '(empty)\n');
  out.push('## Suffix', '');
  out.push(r.suffix ? codeBlock(r.suffix, lang) : '(empty)\n');
  return out.join('\n');
}

// ---- parley: Show Completion Context ----

export interface ContextUI {
  show(markdown: string, id: string | number | undefined): Promise<void>;
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Asks the server what the model was given for the last completion
 * (parley/completionContext with the id of the item shown or returned
 * last; without an id, the server's last) and shows it.
 */
export async function showCompletionContext(client: CompletionClient | undefined, last: LastCompletion | undefined, ui: ContextUI): Promise<void> {
  if (!client) {
    ui.warn('parley: the language server is not running.');
    return;
  }
  // A completion the server does not know (any more) is InvalidParams or
  // null: nothing to show.
  const ask = (params: { id?: string | number }) =>
    client.sendRequest<CompletionContextResult | null>(Methods.completionContext, params).catch((e: unknown) => {
      if ((e as { code?: unknown })?.code === INVALID_PARAMS) {
        return null;
      }
      throw e;
    });
  let r: CompletionContextResult | null;
  try {
    r = await ask(last ? { id: last.id } : {});
    if (!r && last) {
      // The server no longer keeps that one: its last, then.
      r = await ask({});
    }
  } catch (e) {
    if ((e as { code?: unknown })?.code === METHOD_NOT_FOUND) {
      ui.warn('parley: this parley server does not report the context of its completions (no parley/completionContext). Update parley to see it.');
    } else {
      ui.warn(`parley: could not get the completion's context: ${e instanceof Error ? e.message : String(e)}`);
    }
    return;
  }
  if (!r) {
    ui.info('parley: no completion yet in this session. Type in a file until ghost text appears, then ask again.');
    return;
  }
  const fallback = last && (r.id === undefined || String(r.id) === String(last.id)) ? last : {};
  await ui.show(contextMarkdown(r, fallback), r.id ?? (fallback as Partial<LastCompletion>).id);
}
