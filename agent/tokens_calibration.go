package agent

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/cockroachdb/pebble/v2"
)

// Calibrations keeps the token calibration (the ratio of the prompt sizes
// a provider reports to the local counts of the same prompts, see
// tokens.go) per model across sessions, so that a new or resumed session
// starts calibrated instead of trusting raw counts until its first answer.
// *SessionStore implements it; an Agent uses it when its Store does.
type Calibrations interface {
	Calibration(model string) float64 // 0: none saved
	SaveCalibration(model string, ratio float64) error
}

func calibrationKey(model string) []byte { return sessionKey(prefixCalibration, model) }

// Calibration returns the ratio last saved for model, 0 if none (or a
// record out of the calibration bounds: another parley's, or damaged).
func (st *SessionStore) Calibration(model string) float64 {
	v, err := st.get(calibrationKey(model))
	if err != nil {
		return 0
	}
	var r float64
	if json.Unmarshal(v, &r) != nil || r < minRatio || r > maxRatio {
		return 0
	}
	return r
}

// SaveCalibration keeps ratio as model's calibration. Not synced: a lost
// ratio only means the next session calibrates from its first answer.
func (st *SessionStore) SaveCalibration(model string, ratio float64) error {
	v, err := json.Marshal(ratio)
	if err != nil {
		return fmt.Errorf("save the token calibration of %s: %w", model, err)
	}
	if err := st.db.Set(calibrationKey(model), v, pebble.NoSync); err != nil {
		return fmt.Errorf("save the token calibration of %s: %w", model, err)
	}
	return nil
}

// calibrate starts s's counter for a.Model from the saved calibration
// when it has none of its own yet.
func (a *Agent) calibrate(s *Session) {
	tc := s.counter(a.Model)
	if cal, ok := a.Store.(Calibrations); ok && tc.ratio == 0 && !tc.seeded {
		tc.ratio, tc.seeded = cal.Calibration(a.Model), true
	}
}

// saveCalibration keeps tc's ratio when a call changed it noticeably.
func (a *Agent) saveCalibration(tc *tokenCounter, before float64) error {
	cal, ok := a.Store.(Calibrations)
	if !ok || tc.ratio == 0 || math.Abs(tc.ratio-before) < 0.01 {
		return nil
	}
	return cal.SaveCalibration(a.Model, tc.ratio)
}

var _ Calibrations = (*SessionStore)(nil)
