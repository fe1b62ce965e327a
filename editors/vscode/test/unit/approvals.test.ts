import { describe, expect, it, vi } from 'vitest';
import { type ApprovalUI, type CancelToken, describeApproval, handleShowMessageRequest, isApproval } from '../../src/approvals';
import { turnFixture } from '../fixtures';
import * as vscode from 'vscode';

const recorded = turnFixture('cancelled').approvals![0].request;

function ui(over: Partial<ApprovalUI> = {}): ApprovalUI {
  return {
    askInChat: vi.fn(() => undefined),
    askModal: vi.fn(async () => undefined),
    showMessage: vi.fn(async () => undefined),
    ...over,
  };
}

const none: CancelToken = new vscode.CancellationTokenSource().token;

describe('approvals (window/showMessageRequest)', () => {
  it('recognises parley\'s question by its three actions', () => {
    expect(isApproval(recorded)).toBe(true);
    expect(isApproval({ ...recorded, type: 3 })).toBe(false);
    expect(isApproval({ type: 2, message: 'x', actions: [{ title: 'OK' }] })).toBe(false);
  });

  it('describes the command for the modal', () => {
    expect(describeApproval(recorded.message)).toEqual({ title: 'parley wants to run a command', detail: 'sleep 30 && go test ./...' });
    expect(describeApproval('parley wants to fetch https://go.dev (docs)').title).toBe('parley wants to fetch a URL');
    expect(describeApproval('something else')).toEqual({ title: 'something else', detail: '' });
  });

  it('asks in the chat view when it is visible', async () => {
    const u = ui({ askInChat: vi.fn(async () => 'Allow for this session') });
    await expect(handleShowMessageRequest(recorded, none, u)).resolves.toEqual({ title: 'Allow for this session' });
    expect(u.askInChat).toHaveBeenCalledWith(recorded.message, ['Allow once', 'Allow for this session', 'Deny'], none);
    expect(u.askModal).not.toHaveBeenCalled();
  });

  it('falls back to a modal dialog; dismissing it denies (null)', async () => {
    const u = ui();
    await expect(handleShowMessageRequest(recorded, none, u)).resolves.toBeNull();
    expect(u.askModal).toHaveBeenCalledWith(
      'parley wants to run a command',
      'sleep 30 && go test ./...\n\nClosing this dialog denies the request.',
      ['Allow once', 'Allow for this session', 'Deny'],
    );
    const yes = ui({ askModal: vi.fn(async () => 'Allow once') });
    await expect(handleShowMessageRequest(recorded, none, yes)).resolves.toEqual({ title: 'Allow once' });
  });

  it('a withdrawn question (cancelled turn) answers null', async () => {
    const cts = new vscode.CancellationTokenSource();
    cts.cancel();
    const u = ui({ askInChat: vi.fn(async () => 'Allow once') });
    await expect(handleShowMessageRequest(recorded, cts.token, u)).resolves.toBeNull();
    expect(u.askInChat).not.toHaveBeenCalled();
    const w = ui({ askInChat: vi.fn(async () => null) });
    await expect(handleShowMessageRequest(recorded, none, w)).resolves.toBeNull();
  });

  it('other requests get VS Code\'s usual message with buttons', async () => {
    const u = ui({ showMessage: vi.fn(async () => 'Retry') });
    const p = { type: 1, message: 'Indexing failed', actions: [{ title: 'Retry' }, { title: 'Ignore' }] };
    await expect(handleShowMessageRequest(p, none, u)).resolves.toEqual({ title: 'Retry' });
    expect(u.showMessage).toHaveBeenCalledWith(1, 'Indexing failed', ['Retry', 'Ignore']);
    expect(u.askInChat).not.toHaveBeenCalled();
  });
});
