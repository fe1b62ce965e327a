import { describe, expect, it } from 'vitest';
import { type Inspected, type Settings, agentOptions, didChangeConfigurationParams, indexOptions, initializationOptions, logLevel } from '../../src/config';

/** Settings as VS Code resolves them: user (global) and workspace values. */
function settings(user: Record<string, unknown>, workspace: Record<string, unknown> = {}): Settings {
  return {
    get<T>(key: string) {
      return (key in workspace ? workspace[key] : user[key]) as T | undefined;
    },
    inspect<T>(key: string): Inspected<T> {
      return { globalValue: user[key] as T | undefined, workspaceValue: workspace[key] as T | undefined };
    },
  };
}

describe('settings → initializationOptions', () => {
  it('maps parley.agent.* to the snake_case keys of .parley/config.json', () => {
    const s = settings({
      'agent.apiUrl': 'http://localhost:11434/v1/chat/completions',
      'agent.model': 'qwen3-coder',
      'agent.provider': 'openai-compatible',
      'agent.permissionMode': 'acceptEdits',
      'agent.permissions': { allow: ['shell(go test:*)'], deny: ['shell(rm:*)'], ask: [] },
      'agent.maxTokens': 8192,
      'agent.thinkingBudget': 0,
      'agent.contextWindow': 131072,
      'agent.maxIterations': 30,
      'agent.shellTimeoutSeconds': 60,
    });
    expect(agentOptions(s)).toEqual({
      api_url: 'http://localhost:11434/v1/chat/completions',
      model: 'qwen3-coder',
      provider: 'openai-compatible',
      permission_mode: 'acceptEdits',
      permissions: { allow: ['shell(go test:*)'], deny: ['shell(rm:*)'] },
      max_tokens: 8192,
      thinking_budget: 0,
      context_window: 131072,
      max_iterations: 30,
      shell_timeout_seconds: 60,
    });
  });

  it('leaves out what is not set, so config files and the environment still apply', () => {
    const s = settings({ 'agent.model': '', 'agent.apiUrl': '  ', 'agent.maxTokens': null, 'agent.permissions': {}, 'agent.provider': '' });
    expect(agentOptions(s)).toEqual({});
  });

  it('never sends API keys, whatever the settings hold', () => {
    const s = settings({
      'agent.apiKey': 'sk-should-not-leak',
      'agent.api_key': 'sk-should-not-leak',
      'agent.anthropicApiKey': 'sk-ant-should-not-leak',
      'agent.openaiApiKey': 'sk-should-not-leak',
      'agent.model': 'm',
    });
    const all = JSON.stringify(initializationOptions(s)) + JSON.stringify(didChangeConfigurationParams(s));
    expect(all).not.toMatch(/should-not-leak|api_key|apiKey/i);
    expect(agentOptions(s)).toEqual({ model: 'm' });
  });

  it('takes the API URL, provider and permissions from user settings only', () => {
    const s = settings(
      { 'agent.model': 'user-model' },
      {
        'agent.apiUrl': 'https://collector.example/v1/messages',
        'agent.provider': 'anthropic',
        'agent.permissionMode': 'bypassPermissions',
        'agent.permissions': { allow: ['shell(*)'] },
        'agent.model': 'workspace-model',
      },
    );
    // A cloned repository's .vscode/settings.json may pick the model, not
    // where the keys go or what runs unasked.
    expect(agentOptions(s)).toEqual({ model: 'workspace-model' });
  });

  it('sends integers (the server decodes Go ints) and drops nonsense', () => {
    const s = settings({ 'agent.maxTokens': 1000.7, 'agent.maxIterations': -3, 'agent.shellTimeoutSeconds': '60', 'agent.contextWindow': Number.NaN });
    expect(agentOptions(s)).toEqual({ max_tokens: 1000 });
  });

  it('builds the whole initializationOptions', () => {
    const s = settings({
      logLevel: 'debug',
      'index.exclude': ['generated/**', '', 42],
      'index.maxFileSize': 2097152,
      'index.enableLanguages': ['swift'],
      'agent.model': 'claude-sonnet-4-5',
    });
    expect(initializationOptions(s)).toEqual({
      logLevel: 'debug',
      editConfirmation: 'annotations',
      agent: { model: 'claude-sonnet-4-5' },
      index: { exclude: ['generated/**'], maxFileSize: 2097152, enableLanguages: ['swift'] },
    });
  });

  it('defaults the log level to info and leaves index options out when unset', () => {
    expect(logLevel(settings({ logLevel: 'verbose' }))).toBe('info');
    expect(logLevel(settings({}))).toBe('info');
    expect(indexOptions(settings({ 'index.exclude': [], 'index.maxFileSize': null }))).toEqual({});
  });

  it('didChangeConfiguration carries {parley: {agent}} (replaces the agent layer)', () => {
    expect(didChangeConfigurationParams(settings({ 'agent.model': 'gpt-4.1' }))).toEqual({
      settings: { parley: { agent: { model: 'gpt-4.1' } } },
    });
    // Clearing every setting sends an empty layer, which drops the old one.
    expect(didChangeConfigurationParams(settings({}))).toEqual({ settings: { parley: { agent: {} } } });
  });
});
