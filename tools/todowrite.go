package tools

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/parleyhq/parley/agent/access"
)

//go:embed desc/todo_write.md
var todoWriteDesc string

// TodoStatus is the state of a todo item.
type TodoStatus string

const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
)

// TodoItem is one entry of a session's todo list.
type TodoItem struct {
	ID      string     `json:"id"`
	Content string     `json:"content"`
	Status  TodoStatus `json:"status"`
	// ActiveForm is the present-continuous phrasing shown while the item is
	// in progress ("Running the tests"), optional.
	ActiveForm string `json:"activeForm,omitempty"`
}

// TodoList is a session's todo list. The zero value is an empty list; it is
// safe for concurrent use and hands out copies.
type TodoList struct {
	mu    sync.Mutex
	items []TodoItem
}

// Set replaces the list after validating it (see ValidateTodos).
func (l *TodoList) Set(items []TodoItem) error {
	if err := ValidateTodos(items); err != nil {
		return err
	}
	l.mu.Lock()
	l.items = slices.Clone(items)
	l.mu.Unlock()
	return nil
}

// Items returns a copy of the list.
func (l *TodoList) Items() []TodoItem {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.items)
}

// ValidateTodos checks a list: non-empty unique ids and contents, known
// statuses, and at most one item in progress.
func ValidateTodos(items []TodoItem) error {
	ids := map[string]int{}
	inProgress := -1
	for i, it := range items {
		n := i + 1
		switch {
		case strings.TrimSpace(it.ID) == "":
			return fmt.Errorf("todo %d: id is empty", n)
		case strings.TrimSpace(it.Content) == "":
			return fmt.Errorf("todo %d: content is empty", n)
		case it.Status != TodoPending && it.Status != TodoInProgress && it.Status != TodoCompleted:
			return fmt.Errorf("todo %d: status %q must be pending, in_progress or completed", n, it.Status)
		}
		if prev, dup := ids[it.ID]; dup {
			return fmt.Errorf("todos %d and %d have the same id %q", prev, n, it.ID)
		}
		ids[it.ID] = n
		if it.Status == TodoInProgress {
			if inProgress >= 0 {
				return fmt.Errorf("todos %d and %d are both in_progress; work on one thing at a time", inProgress, n)
			}
			inProgress = n
		}
	}
	return nil
}

type todoWriteParams struct {
	Todos []todoParam `json:"todos" jsonschema:"description=The complete new list; it replaces the previous one. Send an empty list to clear it."`
}

type todoParam struct {
	ID         string `json:"id,omitempty" jsonschema:"description=Stable identifier; defaults to the item's position (1, 2, ...)."`
	Content    string `json:"content" jsonschema:"description=What needs doing, in the imperative (Run the tests)."`
	Status     string `json:"status" jsonschema:"enum=pending|in_progress|completed,description=At most one item may be in_progress."`
	ActiveForm string `json:"active_form,omitempty" jsonschema:"description=Present-continuous form shown while in progress (Running the tests)."`
}

// todoWriteTool replaces the session's todo list. It is read-only: the
// list is session state, not the workspace, so plan mode may use it and it
// needs no approval.
var todoWriteTool = New(
	Spec{Name: "todo_write", Description: todoWriteDesc, ReadOnly: true},
	todoWriteAccess, todoWriteRun)

func todoWriteAccess(env *Env, p *todoWriteParams) (access.Access, error) {
	return access.Access{Kind: access.Read, Summary: fmt.Sprintf("update the todo list (%s)", plural(len(p.Todos), "item"))}, nil
}

func todoWriteRun(ctx context.Context, env *Env, p *todoWriteParams) (*Result, error) {
	if env.Todos == nil {
		return Errorf("the todo list is unavailable in this session"), nil
	}
	items := make([]TodoItem, len(p.Todos))
	for i, t := range p.Todos {
		items[i] = TodoItem{ID: cmpOrString(t.ID, strconv.Itoa(i+1)), Content: t.Content, Status: TodoStatus(t.Status), ActiveForm: t.ActiveForm}
	}
	if err := env.Todos.Set(items); err != nil {
		return Errorf("%v; the list was not changed", err), nil
	}
	return &Result{Content: RenderTodos(items)}, nil
}

// RenderTodos formats a list for the model and the terminal.
func RenderTodos(items []TodoItem) string {
	if len(items) == 0 {
		return "Todo list cleared.\n"
	}
	var b strings.Builder
	done := 0
	for _, it := range items {
		mark := "[ ]"
		switch it.Status {
		case TodoInProgress:
			mark = "[>]"
		case TodoCompleted:
			mark = "[x]"
			done++
		}
		fmt.Fprintf(&b, "%s %s. %s\n", mark, it.ID, it.Content)
	}
	fmt.Fprintf(&b, "(%d of %d completed)\n", done, len(items))
	return b.String()
}

func cmpOrString(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
