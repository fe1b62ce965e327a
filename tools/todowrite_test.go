package tools

import (
	"strings"
	"sync"
	"testing"
)

func TestTodoWrite(t *testing.T) {
	w := ftNew(t, nil)
	todos := func(items ...map[string]any) map[string]any { return map[string]any{"todos": items} }
	item := func(content, status string) map[string]any {
		return map[string]any{"content": content, "status": status}
	}
	out := ftOK(t, todoWriteTool, w.env, todos(item("Write the parser", "completed"), item("Test it", "in_progress"), map[string]any{"id": "docs", "content": "Document it", "status": "pending", "active_form": "Documenting it"}))
	if out != "[x] 1. Write the parser\n[>] 2. Test it\n[ ] docs. Document it\n(1 of 3 completed)\n" {
		t.Errorf("render:\n%s", out)
	}
	items := w.env.Todos.Items()
	if len(items) != 3 || items[2].ID != "docs" || items[2].ActiveForm != "Documenting it" || items[1].Status != TodoInProgress {
		t.Errorf("items %+v", items)
	}
	for _, tc := range []struct {
		input map[string]any
		want  string
	}{
		{todos(item("a", "in_progress"), item("b", "in_progress")), "todos 1 and 2 are both in_progress"},
		{todos(item("a", "done")), `field "todos[0].status" must be one of pending, in_progress, completed`},
		{todos(item("  ", "pending")), "todo 1: content is empty"},
		{todos(map[string]any{"id": "x", "content": "a", "status": "pending"}, map[string]any{"id": "x", "content": "b", "status": "pending"}), `same id "x"`},
		{map[string]any{"todos": []map[string]any{{"content": "a"}}}, `missing required field "todos[0].status"`},
	} {
		msg := ftFail(t, todoWriteTool, w.env, tc.input, tc.want)
		if !strings.Contains(msg, "not changed") && !strings.Contains(msg, "invalid input") {
			t.Errorf("message %q", msg)
		}
	}
	if len(w.env.Todos.Items()) != 3 {
		t.Error("a refused update changed the list")
	}
	ftContains(t, ftOK(t, todoWriteTool, w.env, map[string]any{"todos": []any{}}), "cleared")
	if len(w.env.Todos.Items()) != 0 {
		t.Error("not cleared")
	}
	w.env.Todos = nil
	ftFail(t, todoWriteTool, w.env, todos(item("a", "pending")), "unavailable")
}

func TestTodoListConcurrent(t *testing.T) {
	var l TodoList
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if err := l.Set([]TodoItem{{ID: "1", Content: "c", Status: TodoPending}}); err != nil {
					t.Error(err)
				}
				items := l.Items()
				items = append(items[:0], TodoItem{ID: string(rune('a' + i))}) // must not affect the list
				_ = items
			}
		}()
	}
	wg.Wait()
	if got := l.Items(); len(got) != 1 || got[0].ID != "1" {
		t.Errorf("items %+v", got)
	}
}
