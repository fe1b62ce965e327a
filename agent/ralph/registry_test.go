package ralph

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestRegistry(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	runs := []RunInfo{
		{ID: "20260101-000000.000-aaaaaa", PID: os.Getpid(), Started: now, State: StateRunning},
		{ID: "20260101-000000.000-aabbbb", PID: os.Getpid(), Started: now.Add(time.Second), State: StateStopped, StopReason: StopCompleted},
		{ID: "20260101-000000.000-cccccc", PID: 1 << 30, Started: now.Add(2 * time.Second), State: StateRunning}, // no such process
	}
	for _, r := range runs {
		if err := reg.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	list, err := reg.List()
	if err != nil || len(list) != 3 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if list[0].ID != runs[2].ID || list[0].State != StateDead || list[1].State != StateStopped || list[2].State != StateRunning {
		t.Errorf("newest first, the vanished run dead: %+v", list)
	}
	if _, err := reg.Find("20260101-000000.000-aa"); err == nil || !strings.Contains(err.Error(), "matches 2") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if r, err := reg.Find("20260101-000000.000-aaa"); err != nil || r.ID != runs[0].ID {
		t.Errorf("Find = %+v, %v", r, err)
	}
	if reg.Pending(runs[0].ID) != "" {
		t.Error("a request before any was made")
	}
	if err := reg.Request(runs[0].ID, RequestPause); err != nil || reg.Pending(runs[0].ID) != RequestPause {
		t.Errorf("Request: %v, pending %q", err, reg.Pending(runs[0].ID))
	}
	reg.Forget(runs[0].ID)
	if reg.Pending(runs[0].ID) != "" {
		t.Error("Forget kept the request")
	}
}
