// SPDX-License-Identifier: GPL-3.0-or-later
// How long a run takes in all, from the engine's own count of its work
// (issue 52). The engine reports done of total units of work, total being
// the whole run's (every point's trials, and under a precision the rounds
// the precision will need: sched.c's projection). A run is modelled as
// setup + work / rate: the setup (loading the engine, preparing points,
// building layouts) is the time before the first work is reported, and
// does not scale with the trials, so it is never extrapolated; the rate
// is the work per second measured over the stretch after it (the pilot).
// Projecting the whole elapsed time by the share done instead counted the
// setup as many times as the work is larger than the pilot's, which made a
// run of 10000 trials look like minutes.

// The stretch the rate is measured over before it is trusted.
export const PILOT_SECONDS = 0.5;

export function create(now = performance.now()) {
  return {start: now, first: null, last: null, total: 0};
}

// A progress report at time now (ms): done of total units of work.
export function report(m, done, total, now = performance.now()) {
  m.total = total;
  if (done <= 0) return;
  if (!m.first) m.first = {t: now, done};
  m.last = {t: now, done};
}

// Whether the rate has been measured for PILOT_SECONDS after the setup.
export function ready(m) {
  return !!m.first && (m.last.t - m.first.t) / 1000 >= PILOT_SECONDS && m.last.done > m.first.done;
}

// Seconds per unit of work, as measured after the setup.
function perUnit(m) {
  return (m.last.t - m.first.t) / 1000 / (m.last.done - m.first.done);
}

// The whole run's time in seconds (setup included), or NaN before ready().
export function whole(m) {
  if (!ready(m)) return NaN;
  return (m.first.t - m.start) / 1000 + (m.total - m.first.done) * perUnit(m);
}

// The time still to go, in seconds.
export function left(m, now = performance.now()) {
  return Math.max(0, whole(m) - (now - m.start) / 1000);
}

// What the same run would take with its work scaled by share (e.g. fewer
// trials): the setup as measured, the work at the measured rate.
export function scaled(m, share) {
  if (!ready(m)) return NaN;
  return (m.first.t - m.start) / 1000 + m.total * share * perUnit(m);
}

// A time as a player reads it: one figure.
export function duration(s) {
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
