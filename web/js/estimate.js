// SPDX-License-Identifier: GPL-3.0-or-later
// How long a run takes in all, from the engine's own count of its work
// (issue 52). The engine reports done of total units of work, total being
// the whole run's (every point's trials, and under a precision the rounds
// the precision will need: sched.c's projection). A run is modelled as
// setup + work / rate: the setup (loading the engine, preparing points,
// building layouts) is the time before the first work is reported, and
// does not scale with the trials, so it is never extrapolated; the rate
// is the work per second measured after it (the pilot, then the later
// half of everything measured).
// Projecting the whole elapsed time by the share done instead counted the
// setup as many times as the work is larger than the pilot's, which made a
// run of 10000 trials look like minutes.

// The stretch the rate is measured over before it is trusted.
export const PILOT_SECONDS = 0.5;
// The engine's code runs slower until the browser has compiled it fully,
// for a second or more on a busy machine (a rate from the start
// overestimated long runs nearly twice): the rate is the later half's of
// what has been measured, so the pilot's is that of its last quarter
// second, and it follows the engine's speed as the run goes on.
const WARMUP_SECONDS = 0.25;

export function create(now = performance.now()) {
  return {start: now, samples: [], mid: 0, total: 0};
}

// A progress report at time now (ms): done of total units of work.
export function report(m, done, total, now = performance.now()) {
  m.total = total;
  if (done <= 0) return;
  const s = m.samples;
  s.push({t: now, done});
  // The first sample of the later half of the time measured.
  const half = (s[0].t + now) / 2;
  while (m.mid < s.length - 1 && s[m.mid].t < half) m.mid++;
}

function first(m) {
  return m.samples[m.mid];
}

function last(m) {
  return m.samples[m.samples.length - 1];
}

// Whether the rate has been measured for the pilot after the setup.
export function ready(m) {
  const s = m.samples;
  return s.length > 2 && (last(m).t - s[0].t) / 1000 >= PILOT_SECONDS + WARMUP_SECONDS &&
    last(m).done > first(m).done && last(m).t > first(m).t;
}

// Seconds per unit of work, as measured lately.
function perUnit(m) {
  return (last(m).t - first(m).t) / 1000 / (last(m).done - first(m).done);
}

// The whole run's time in seconds (setup included), or NaN before ready().
export function whole(m) {
  if (!ready(m)) return NaN;
  return (first(m).t - m.start) / 1000 + (m.total - first(m).done) * perUnit(m);
}

// The time still to go, in seconds.
export function left(m, now = performance.now()) {
  return Math.max(0, whole(m) - (now - m.start) / 1000);
}

// What the same run would take with its work scaled by share (e.g. fewer
// trials): the setup as measured, the work at the measured rate.
export function scaled(m, share) {
  if (!ready(m)) return NaN;
  // The setup is the time before the first work, not before first(m).
  return (m.samples[0].t - m.start) / 1000 + m.total * share * perUnit(m);
}

// A time as a player reads it: one figure.
export function duration(s) {
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
