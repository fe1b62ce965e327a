// Package permission decides whether a tool call may run: allowed outright,
// denied with a reason the model can act on, or put to the user through an
// Approver.
//
// A Policy combines a Mode (the default for each kind of call) with Rules
// from the configuration and with allowances the user granted during the
// session. Deny rules beat ask rules, ask rules beat allow rules, and rules
// beat the mode's default, except that plan mode denies every call that is
// not a read whatever the allow rules say. Reads are allowed in every mode
// unless a rule says otherwise. The shell tool's danger list is not part of
// the policy: it lives in the tool and refuses even in bypassPermissions
// mode.
//
// A call is judged by the paths it names, so a search over a directory
// is a read of that directory; GuardFiles makes read deny rules hold for
// the files such a search reads too.
//
// Shell commands are judged per simple command (shellcmd.Script.Commands): a
// compound command such as `go test ./... && rm x`, including the script of
// a nested `sh -c`, is allowed by rules only when every simple command in
// it is, and denied when any one is.
//
// Deferred wraps a Policy for front ends that show an edit's change before
// it is written: an edit the policy would ask about runs unasked and is
// asked about where the change is computed, matched by tool call ID.
//
// Contracts: a Policy and a Deferred are safe for concurrent use. Decide has no side
// effects; Check may call the Approver (which must honour ctx) and, when
// the user allows a call for the session, remembers a rule so that calls of
// the same kind are not asked again.
package permission
