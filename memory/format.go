package memory

import (
	"fmt"
	"strings"
)

// FormatLine is one memory on one line: reference, type, importance,
// tags and content (newlines folded).
func FormatLine(m Memory) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s (importance %d", Ref(m), m.Type, m.Importance)
	if len(m.Tags) > 0 {
		fmt.Fprintf(&b, "; tags: %s", strings.Join(m.Tags, ", "))
	}
	b.WriteString("): ")
	b.WriteString(strings.Join(strings.Fields(m.Content), " "))
	return b.String()
}

// FormatDetail is a memory in full for the model or the user: its line
// (with why it is stale, if it is), then anchors and dates, then a blank
// line.
func FormatDetail(h Hit) string {
	m := h.Memory
	var b strings.Builder
	b.WriteString(FormatHit(h))
	b.WriteString("\n")
	for _, a := range m.Anchors {
		b.WriteString("  anchor: " + a.Path)
		if a.Symbol != "" {
			b.WriteString(" " + a.Symbol)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "  written %s", m.Created.Format("2006-01-02"))
	if !m.Updated.IsZero() {
		fmt.Fprintf(&b, ", edited %s", m.Updated.Format("2006-01-02"))
	}
	if !m.Used.IsZero() {
		fmt.Fprintf(&b, ", last recalled %s", m.Used.Format("2006-01-02"))
	}
	b.WriteString("\n\n")
	return b.String()
}

// FormatStats is one scope's StoreStats on one line.
func FormatStats(st StoreStats) string {
	if !st.Available {
		return fmt.Sprintf("%s memories: unavailable", st.Scope)
	}
	var parts []string
	for _, t := range Types {
		if n := st.Types[t]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, t))
		}
	}
	line := fmt.Sprintf("%s memories: %d (%s)", st.Scope, st.Count, strings.Join(parts, ", "))
	if st.Stale > 0 {
		line += fmt.Sprintf(", %d stale", st.Stale)
	}
	return line + " in " + st.Dir
}
