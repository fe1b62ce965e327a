// Settings → initializationOptions and workspace/didChangeConfiguration.
//
// Pure: reads through the small Settings interface (a
// vscode.WorkspaceConfiguration for the "parley" section satisfies it), so
// the mapping is unit-tested without VS Code.
//
// Contract: API keys are never read from settings nor sent by the
// extension. The agent gets them from the environment or the user's config
// file. Only the keys listed in AGENT_SETTINGS are forwarded; anything else
// a user writes under parley.agent (an "apiKey", say) is ignored.

export interface Inspected<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export interface Settings {
  get<T>(key: string): T | undefined;
  inspect<T>(key: string): Inspected<T> | undefined;
}

type Kind = 'string' | 'int' | 'rules';

interface AgentSetting {
  /** Key below parley.agent. */
  setting: string;
  /** Key in .parley/config.json and initializationOptions.agent. */
  json: string;
  kind: Kind;
  /**
   * User settings only: a workspace's .vscode/settings.json may come with a
   * cloned repository, so it may not redirect the model API (and the keys
   * sent to it), pick the provider, or loosen permissions.
   */
  userOnly?: boolean;
}

export const AGENT_SETTINGS: readonly AgentSetting[] = [
  { setting: 'apiUrl', json: 'api_url', kind: 'string', userOnly: true },
  { setting: 'model', json: 'model', kind: 'string' },
  { setting: 'provider', json: 'provider', kind: 'string', userOnly: true },
  { setting: 'permissionMode', json: 'permission_mode', kind: 'string', userOnly: true },
  { setting: 'permissions', json: 'permissions', kind: 'rules', userOnly: true },
  { setting: 'maxTokens', json: 'max_tokens', kind: 'int' },
  { setting: 'thinkingBudget', json: 'thinking_budget', kind: 'int' },
  { setting: 'contextWindow', json: 'context_window', kind: 'int' },
  { setting: 'maxIterations', json: 'max_iterations', kind: 'int' },
  { setting: 'shellTimeoutSeconds', json: 'shell_timeout_seconds', kind: 'int' },
];

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AgentOptions {
  api_url?: string;
  model?: string;
  provider?: string;
  permission_mode?: string;
  permissions?: { allow?: string[]; deny?: string[]; ask?: string[] };
  max_tokens?: number;
  thinking_budget?: number;
  context_window?: number;
  max_iterations?: number;
  shell_timeout_seconds?: number;
}

export interface IndexOptions {
  exclude?: string[];
  maxFileSize?: number;
  enableLanguages?: string[];
}

export interface InitializationOptions {
  logLevel: LogLevel;
  /** VS Code shows edits marked needsConfirmation in its Refactor Preview,
   * so the server asks there instead of with a message box. */
  editConfirmation: 'annotations';
  agent: AgentOptions;
  index: IndexOptions;
}

function userValue<T>(s: Settings, key: string): T | undefined {
  return s.inspect<T>(key)?.globalValue;
}

function stringList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) {
    return undefined;
  }
  const out = v.filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter((x) => x !== '');
  return out.length > 0 ? out : undefined;
}

function normalize(kind: Kind, v: unknown): unknown {
  switch (kind) {
    case 'string':
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    case 'int':
      // The server decodes into Go ints: 1.5 or "10" would fail initialize.
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : undefined;
    case 'rules': {
      if (v === null || typeof v !== 'object') {
        return undefined;
      }
      const r = v as Record<string, unknown>;
      const out: Record<string, string[]> = {};
      for (const k of ['allow', 'deny', 'ask']) {
        const list = stringList(r[k]);
        if (list) {
          out[k] = list;
        }
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
  }
}

/**
 * The agent layer: the parley.agent.* settings that are set, in the
 * snake_case shape of .parley/config.json. Unset settings are left out so
 * the config files and the environment still apply.
 */
export function agentOptions(s: Settings): AgentOptions {
  const out: Record<string, unknown> = {};
  for (const a of AGENT_SETTINGS) {
    const key = `agent.${a.setting}`;
    const raw = a.userOnly ? userValue(s, key) : s.get(key);
    const v = normalize(a.kind, raw);
    if (v !== undefined) {
      out[a.json] = v;
    }
  }
  return out as AgentOptions;
}

export function logLevel(s: Settings): LogLevel {
  const v = s.get<string>('logLevel');
  return (LOG_LEVELS as readonly string[]).includes(v ?? '') ? (v as LogLevel) : 'info';
}

export function indexOptions(s: Settings): IndexOptions {
  const out: IndexOptions = {};
  const exclude = stringList(s.get('index.exclude'));
  if (exclude) {
    out.exclude = exclude;
  }
  const max = normalize('int', s.get('index.maxFileSize'));
  if (typeof max === 'number' && max > 0) {
    out.maxFileSize = max;
  }
  const langs = stringList(s.get('index.enableLanguages'));
  if (langs) {
    out.enableLanguages = langs;
  }
  return out;
}

/** initializationOptions for `parley serve` (docs/protocol.md). */
export function initializationOptions(s: Settings): InitializationOptions {
  return { logLevel: logLevel(s), editConfirmation: 'annotations', agent: agentOptions(s), index: indexOptions(s) };
}

/** workspace/didChangeConfiguration's params: replaces the agent layer. */
export function didChangeConfigurationParams(s: Settings): { settings: { parley: { agent: AgentOptions } } } {
  return { settings: { parley: { agent: agentOptions(s) } } };
}

/** Settings whose change needs a server restart (they are read at initialize). */
export const RESTART_SETTINGS = ['parley.path', 'parley.logLevel', 'parley.index'] as const;
