// The page: the link in the fragment is the state; opening it runs it.
// The page contract the browser test relies on:
//   document.body.dataset.state   idle, busy, then done or error
//   #error                        the message, on error
//   <table id="results">          on done, the CSV of the equivalent command
//                                 (header row first), cell for cell
//   document.body.dataset.ms      the computation's time in milliseconds

import {byId, fill} from './dom.js';
import * as engine from './engine.js';
import * as form from './form.js';
import * as link from './link.js';
import * as chart from './chart.js';
import * as plots from './plots.js';
import * as mapview from './mapview.js';
import * as results from './results.js';
import * as unitsview from './unitsview.js';

let current = {cmd: 'run', pairs: []};

function setState(state) {
  document.body.dataset.state = state;
}

function showError(message, command) {
  fill(byId('error'), message);
  byId('error').hidden = false;
  if (command !== undefined) {
    byId('output').hidden = false;
    results.showCommand(command);
  }
  setState('error');
}

function showTabs(cmd) {
  for (const a of document.querySelectorAll('nav a')) {
    a.classList.toggle('current', a.dataset.cmd === cmd);
  }
}

function draw(cmd, result) {
  const spec = plots.specFor(cmd, result);
  byId('chart').hidden = !spec;
  if (spec) chart.draw(byId('chart'), spec);
  byId('map-view').hidden = cmd !== 'map';
  if (cmd === 'map') mapview.draw(byId('map'), result, (t) => fill(byId('map-readout'), t));
}

function progress(done, total) {
  const bar = byId('progress');
  bar.max = total || 1;
  bar.value = Math.min(done, bar.max);
}

async function run(state) {
  setState('busy');
  byId('cancel').disabled = false;
  byId('progress').hidden = false;
  byId('progress').removeAttribute('value');
  try {
    const {result, ms} = state.cmd === 'units' ? await unitsview.exec(state, progress)
                                               : await engine.exec(state.cmd, state.pairs, progress);
    document.body.dataset.ms = ms.toFixed(3);
    if (result.ok) {
      results.show(result);
      if (state.cmd === 'units') unitsview.show(result, !!state.dropped);
      else draw(state.cmd, result);
      setState('done');
    } else {
      form.markError(result.field, result.message);
      showError(result.cli, result.command);
      if (state.cmd === 'units') unitsview.showNotes(result);
    }
  } catch (e) {
    showError(e.cancelled ? 'Cancelled: the run was stopped before it finished; nothing to show.'
                          : `The engine failed: ${e.message}`);
  } finally {
    byId('cancel').disabled = true;
    byId('progress').hidden = true;
  }
}

// Shows the link's state in the form and runs it (an empty link only shows).
function route() {
  if (engine.busy()) engine.cancel();
  results.clear();
  unitsview.clear();
  byId('error').hidden = true;
  fill(byId('error'));
  byId('chart').hidden = true;
  byId('map-view').hidden = true;
  try {
    current = link.parse(location.hash);
  } catch (e) {
    showError(e.message);
    return;
  }
  Promise.resolve(show(current)).then(() => {
    if (location.hash.length > 1 && link.get(current.pairs, 'source') !== undefined) run(current);
    else if (location.hash.length > 1 && current.cmd !== 'units') run(current);
    else setState('idle');
  }, (e) => showError(`The page failed: ${e.message}`));
}

// The form of a state, without running it.
function show(state) {
  current = state;
  showTabs(state.cmd);
  if (state.cmd === 'units') return unitsview.render(byId('form-fields'), state);
  form.render(byId('form-fields'), state, (name) =>
    show({cmd: state.cmd, pairs: [['experiment.ruleset', name]]}));
}

// A tab: the form of another command, keeping the ruleset where it has one.
function tab(event) {
  event.preventDefault();
  const cmd = event.currentTarget.dataset.cmd;
  if (engine.busy()) engine.cancel();
  const name = link.get(current.pairs, 'experiment.ruleset');
  history.replaceState(null, '', location.pathname + location.search);
  results.clear();
  unitsview.clear();
  fill(byId('error'));
  byId('error').hidden = true;
  byId('chart').hidden = true;
  byId('map-view').hidden = true;
  show({cmd, pairs: cmd === 'dice' || !name ? [] : [['experiment.ruleset', name]]});
  setState('idle');
}

function submit(event) {
  event.preventDefault();
  const pairs = current.cmd === 'units' ? unitsview.read() : form.read();
  const hash = link.format({cmd: current.cmd, pairs});
  if (hash === location.hash) route();
  else location.hash = hash;
}

async function boot() {
  setState('loading');
  form.init(await engine.rulesets());
  byId('form').addEventListener('submit', submit);
  byId('cancel').addEventListener('click', () => engine.cancel());
  // Dropped files run without a link (none can carry them): the fragment
  // keeps only the tab, so reloading shows the tab, not a stale army.
  unitsview.init((pairs) => {
    if (engine.busy()) engine.cancel();
    history.replaceState(null, '', location.pathname + location.search + '#cmd=units');
    results.clear();
    unitsview.clear();
    fill(byId('error'));
    byId('error').hidden = true;
    byId('chart').hidden = true;
    run({cmd: 'units', pairs: pairs.filter(([k]) => k !== 'source'), dropped: true});
  });
  window.addEventListener('hashchange', route);
  for (const a of document.querySelectorAll('nav a')) a.addEventListener('click', tab);
  route();
}

boot();
