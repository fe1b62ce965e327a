// How the chat view words a hook run (pure; used by the page and tested).

import type { HookItem, Turn } from './state';
import { stopReasonText } from './present';

export const HOOK_OUTCOMES: Record<string, string> = {
  blocked: 'blocked',
  failed: 'failed',
  timeout: 'timed out',
  refused: 'not run: workspace hooks are not approved',
};

/** The entry's line: "PreToolUse hook blocked". */
export function hookTitle(it: HookItem): string {
  return `${it.hook.event} hook ${HOOK_OUTCOMES[it.hook.outcome] ?? it.hook.outcome}`;
}

/**
 * What a refused hook tells the user instead of the server's message:
 * workspace hooks run only once the user approved them, which is done in a
 * terminal (docs/loops-hooks.md), never from the editor, so that opening a
 * cloned repository cannot approve them.
 */
export function refusedHint(it: HookItem): string {
  return `Hooks of ${it.hook.source || "this workspace's .parley/config.json"} run only once you approve them. Review them with \`parley hooks\`, then approve them with \`parley hooks approve\`, in a terminal in the workspace folder.`;
}

/**
 * Why a turn ended, as its footer says it: a turn a hook ended names the
 * hook's reason (the message of its last blocking run).
 */
export function turnStopText(t: Turn): string {
  const text = stopReasonText(t.stopReason);
  if (t.stopReason !== 'hook') {
    return text;
  }
  for (let i = t.items.length - 1; i >= 0; i--) {
    const it = t.items[i];
    if (it.kind === 'hook' && it.hook.outcome === 'blocked') {
      return it.hook.message ? `${text} (${it.hook.event}): ${it.hook.message}` : `${text} (${it.hook.event})`;
    }
  }
  return text;
}
