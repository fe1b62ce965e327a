package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// EditMCPServers changes the mcpServers of the config file at path (the
// user file or a workspace file) with edit, keeping its other settings,
// and writes it back atomically. The result must load: a definition edit
// leaves invalid is an error and the file is not changed.
func EditMCPServers(path string, edit func(map[string]MCPServer) error) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read config %s: %w", path, err)
	}
	fields := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(data)) > 0 {
		if _, err := ParseLayer(data); err != nil {
			return fmt.Errorf("config %s: %w", path, err)
		}
		if err := json.Unmarshal(data, &fields); err != nil {
			return fmt.Errorf("config %s: %w", path, err)
		}
	}
	servers := map[string]MCPServer{}
	if raw, ok := fields["mcpServers"]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return fmt.Errorf("config %s: mcpServers: %w", path, err)
		}
	}
	if err := edit(servers); err != nil {
		return err
	}
	for name, srv := range servers {
		if err := srv.validate(name); err != nil {
			return err
		}
	}
	if len(servers) == 0 {
		delete(fields, "mcpServers")
	} else if fields["mcpServers"], err = json.Marshal(servers); err != nil {
		return err
	}
	out, err := json.MarshalIndent(fields, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	mode := fs.FileMode(0o600) // the user file may hold keys
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(out, '\n'), mode); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	return nil
}
