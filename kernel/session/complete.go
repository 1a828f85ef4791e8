package session

// Complete is not implemented yet.
func (s *Session) Complete(code string, cursor int) Completion {
	return Completion{Start: cursor, End: cursor}
}

// Inspect is not implemented yet.
func (s *Session) Inspect(code string, cursor int, detail int) Inspection { return Inspection{} }

// IsComplete is not implemented yet.
func (s *Session) IsComplete(code string) Completeness { return Completeness{Status: "complete"} }
