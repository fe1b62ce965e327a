import { describe, expect, it, vi } from 'vitest';
import { applyWorkspaceEdit, editedFiles, needsConfirmation, staleDocument } from '../../src/applyEdit';
import { turnFixture } from '../fixtures';

const recorded = turnFixture('tool-edit').applyEdits![0];
const uri = 'file:///home/dev/shop/cart/cart.go';

function deps(applied: boolean, open = new Map<string, number>()) {
  return {
    convert: vi.fn(async (e: unknown) => ({ converted: e })),
    openVersions: () => open,
    uriKey: (u: string) => u,
    apply: vi.fn(async () => applied),
    onConfirm: vi.fn(),
    onSettled: vi.fn(),
  };
}

describe('workspace/applyEdit', () => {
  it('the recorded agent edit asks for confirmation (change annotation)', () => {
    expect(needsConfirmation(recorded.edit)).toBe(true);
    expect(editedFiles(recorded.edit)).toEqual([uri]);
    expect(recorded.edit.documentChanges[0].textDocument.version).toBe(1);
  });

  it('applies through workspace.applyEdit (undoable) and reports success', async () => {
    const d = deps(true, new Map([[uri, 1]]));
    await expect(applyWorkspaceEdit(recorded, d)).resolves.toEqual({ applied: true });
    expect(d.convert).toHaveBeenCalledWith(recorded.edit);
    expect(d.apply).toHaveBeenCalledWith({ converted: recorded.edit });
    expect(d.onConfirm).toHaveBeenCalledWith('parley: edit cart/cart.go', 1);
    expect(d.onSettled).toHaveBeenCalledWith(true);
  });

  it('the confirmation hint lasts until the user decides, not longer', async () => {
    let decide!: (applied: boolean) => void;
    const d = deps(true, new Map([[uri, 1]]));
    d.apply.mockImplementation(() => new Promise<boolean>((r) => (decide = r)));
    const hidden = vi.fn();
    d.onConfirm.mockReturnValue(hidden);
    const result = applyWorkspaceEdit(recorded, d);
    await vi.waitFor(() => expect(d.apply).toHaveBeenCalled());
    expect(hidden).not.toHaveBeenCalled();
    decide(true);
    await expect(result).resolves.toEqual({ applied: true });
    expect(hidden).toHaveBeenCalledTimes(1);
  });

  it('a preview not applied goes back to the agent with a reason', async () => {
    // VS Code answers false both for Discard and for Apply with every
    // change left unchecked (as it starts changes that need confirmation).
    const r = await applyWorkspaceEdit(recorded, deps(false));
    expect(r).toEqual({
      applied: false,
      failureReason: "the user did not apply the change in the editor's preview (discarded it, or applied it with none of its changes ticked)",
    });
  });

  it('without annotations a failure is the editor\'s', async () => {
    const plain = { edit: { documentChanges: recorded.edit.documentChanges } };
    const d = deps(false);
    const r = await applyWorkspaceEdit(plain, d);
    expect(r.applied).toBe(false);
    expect(r.failureReason).toMatch(/could not apply/);
    expect(d.onConfirm).not.toHaveBeenCalled();
  });

  it('refuses an edit computed against an older version of an open document', async () => {
    expect(staleDocument(recorded.edit, new Map([[uri, 2]]), (u) => u)).toBe(uri);
    expect(staleDocument(recorded.edit, new Map([[uri, 1]]), (u) => u)).toBeUndefined();
    const d = deps(true, new Map([[uri, 3]]));
    const r = await applyWorkspaceEdit(recorded, d);
    expect(r.applied).toBe(false);
    expect(r.failureReason).toMatch(/changed in the editor/);
    expect(d.apply).not.toHaveBeenCalled();
  });

  it('lists files of resource operations', () => {
    expect(
      editedFiles({
        documentChanges: [
          { kind: 'create', uri: 'file:///a' },
          { kind: 'rename', oldUri: 'file:///b', newUri: 'file:///c' },
          { kind: 'delete', uri: 'file:///d' },
        ],
      }),
    ).toEqual(['file:///a', 'file:///b', 'file:///d']);
  });
});
