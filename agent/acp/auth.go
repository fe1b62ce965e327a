package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/config"
)

// The model's API key never travels over ACP: stable v1 has no way to
// carry one (the draft env_var method type is not in it), and parley
// keeps keys out of the protocol altogether. So the auth methods describe
// the places config.Load reads a key from, and authenticate checks
// whether a key is there now. They are plain "agent" methods, the type
// every client understands.

// Auth method ids: one per environment variable, and the user config file.
const (
	envMethodPrefix = "env:"
	configMethod    = "config-file"
)

// keyVars are the environment variables config.Load takes a model's key
// from (see envLayer there), with where each key is sent (Config.Key).
var keyVars = []struct{ name, scope string }{
	{"PARLEY_API_KEY", "It is sent to whichever api_url is configured, unless a workspace file chose that api_url."},
	{"ANTHROPIC_API_KEY", "It is used with the anthropic provider and sent only to anthropic.com."},
	{"OPENAI_API_KEY", "It is used with the openai provider and sent only to api.openai.com."},
	{"GEMINI_API_KEY", "It is used with the gemini provider and sent only to generativelanguage.googleapis.com."},
	{"GOOGLE_API_KEY", "It is used with the gemini provider, as Google's SDKs use it (before GEMINI_API_KEY when both are set), and sent only to generativelanguage.googleapis.com."},
}

// authMethods lists the ways parley can be given a key. userFile is the
// user config file ("" when there is none: no user config directory).
func authMethods(userFile string) []sdk.AuthMethod {
	out := make([]sdk.AuthMethod, 0, len(keyVars)+1)
	for _, v := range keyVars {
		out = append(out, sdk.AuthMethod{Agent: &sdk.AuthMethodAgent{
			Id:   envMethodPrefix + v.name,
			Name: v.name + " environment variable",
			Description: sdk.Ptr("Set " + v.name + " in the environment parley acp is started with " +
				"(for Zed, the env of its agent_servers entry) and restart the agent. " + v.scope),
		}})
	}
	if userFile != "" {
		out = append(out, sdk.AuthMethod{Agent: &sdk.AuthMethodAgent{
			Id:   configMethod,
			Name: "parley config file",
			Description: sdk.Ptr(`Put "api_key" (or "anthropic_api_key" / "openai_api_key" / "gemini_api_key") in ` + userFile +
				"; authenticating reads the file again, no restart needed. " +
				"A workspace's .parley/config.json may not hold keys."),
		}})
	}
	return out
}

// Authenticate checks that the method's place now holds a usable key:
// the configuration is read again (Options.CheckKey), so a key just
// written to the config file counts. Success means session/new will find
// a key; a failure says what is still missing, never a key.
func (s *Server) Authenticate(_ context.Context, p sdk.AuthenticateRequest) (_ sdk.AuthenticateResponse, err error) {
	defer guard(&err)
	if !s.offers(p.MethodId) {
		ids := make([]string, 0, len(s.auth))
		for _, m := range s.auth {
			ids = append(ids, m.Agent.Id)
		}
		return sdk.AuthenticateResponse{}, invalidParams("unknown authentication method %q; parley offers %s", p.MethodId, strings.Join(ids, ", "))
	}
	if s.opts.CheckKey == nil {
		return sdk.AuthenticateResponse{}, nil // Open alone decides
	}
	cerr := s.opts.CheckKey()
	if cerr == nil {
		return sdk.AuthenticateResponse{}, nil
	}
	if !errors.Is(cerr, config.ErrNoKey) {
		// Not a key problem (a malformed config file, no model): the same
		// answer session/new would give.
		return sdk.AuthenticateResponse{}, openError(cerr)
	}
	var msg string
	switch name, env := strings.CutPrefix(p.MethodId, envMethodPrefix); {
	case env && strings.TrimSpace(s.opts.Getenv(name)) == "":
		msg = fmt.Sprintf("%s is not set in the environment parley acp was started with, and a running process's "+
			"environment cannot be changed from outside: set %s where the editor starts parley acp "+
			"(for Zed, the env of its agent_servers entry) and restart the agent (%v)", name, name, cerr)
	case env:
		msg = fmt.Sprintf("%s is set, but parley has no key to use: %v", name, cerr)
	default:
		msg = fmt.Sprintf("no usable API key after reading %s again: %v", s.userFile, cerr)
	}
	return sdk.AuthenticateResponse{}, sdk.NewAuthRequired(map[string]any{"error": msg})
}

// offers reports whether id is one of the advertised methods.
func (s *Server) offers(id string) bool {
	for _, m := range s.auth {
		if m.Agent.Id == id {
			return true
		}
	}
	return false
}

// openError is the answer to a request whose workspace could not be
// opened: auth_required when what is missing is a key (a client then
// shows its sign-in flow with the methods of initialize), else invalid
// params with the reason. Configuration errors never hold keys.
func openError(err error) error {
	if errors.Is(err, config.ErrNoKey) {
		return sdk.NewAuthRequired(map[string]any{
			"error": err.Error() + " (initialize's authMethods say where parley reads a key from)",
		})
	}
	return invalidParams("%v", err)
}

// userConfigFile is the user config file to name in the auth methods, or
// "" without a user config directory (config.Load reads none then).
func userConfigFile() string {
	p, err := config.UserFile()
	if err != nil {
		return ""
	}
	return p
}
