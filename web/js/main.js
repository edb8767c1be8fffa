// SPDX-License-Identifier: GPL-3.0-or-later
// The page: the link in the fragment is the state; opening it runs it.
// Each tab (tabs.js) keeps its form and its result across switches, and the
// link always describes the tab on screen.
// The page contract the browser test relies on:
//   document.body.dataset.state   loading, idle, busy, then done or error
//                                 (asked: a long run stopped to ask, #long-go
//                                 runs it anyway; see js/progress.js)
//                                 (file: opened as a file, see js/file.js)
//                                 (cancelled: the player's cancel, said in
//                                 #progress-text, not as an error)
//   #error                        the message, on error
//   <table id="results">          on done, the CSV of the equivalent command
//                                 (header row first), cell for cell
//   #verdict                      compare: its verdict, the command line's
//                                 sentence (verdict.js; hidden otherwise)
//   document.body.dataset.ms      the computation's time in milliseconds

import {byId, el, fill} from './dom.js';
import * as engine from './engine.js';
import * as form from './form.js';
import * as link from './link.js';
import * as chart from './chart.js';
import * as plots from './plots.js';
import * as mapview from './mapview.js';
import * as results from './results.js';
import * as nav from './nav.js';
import * as progress from './progress.js';
import {find} from './tabs.js';
import * as offline from './offline.js';
import * as unitsview from './unitsview.js';
import * as dicetoggle from './dicetoggle.js';
import * as glossary from './glossary.js';
import * as exporter from './export.js';
import * as verdict from './verdict.js';
import * as waits from './waits.js';
import * as methods from './methods.js';

let current = {cmd: 'run', pairs: []};
let shown = null; // the result on screen, or null
const kept = new Map(); // tab id -> {pairs, result, hash, error}
let choice = {}; // the chart's x axis, as the player picked it

function setState(state) {
  document.body.dataset.state = state;
}

function helpFor(pairs) {
  const name = link.get(pairs, 'experiment.ruleset');
  return (o) => (name ? form.outcomeHelp(name, o) : '');
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

function clearScreen() {
  progress.clearAsk();
  results.clear();
  verdict.clear();
  unitsview.clear();
  exporter.clear();
  byId('error').hidden = true;
  fill(byId('error'));
  shown = null;
}

// The x-axis picker, when the result sweeps more than one key.
function axes(cmd, result) {
  const keys = plots.sweptKeys(result);
  if (cmd === 'dice') return fill(byId('chart-axes'), dicetoggle.toggle(choice, () => draw(cmd, result)));
  if (keys.length < 2 || (cmd !== 'run' && cmd !== 'compare')) return fill(byId('chart-axes'));
  const x = keys.includes(choice.x) ? choice.x : plots.defaultX(result, keys);
  const select = el('select', {id: 'chart-x', onchange: () => {
    choice = {x: select.value};
    draw(cmd, result);
  }}, ...keys.map((k) => el('option', {value: k}, k)));
  select.value = x;
  fill(byId('chart-axes'), el('label', {htmlFor: 'chart-x'}, 'x axis '), select,
       ` — one curve per value of ${keys.filter((k) => k !== x).join(', ')}`);
}

function draw(cmd, result) {
  const spec = plots.specFor(cmd, result, choice, helpFor(current.pairs));
  byId('chart-view').hidden = !spec;
  if (spec) {
    axes(cmd, result);
    const styles = chart.draw(byId('chart'), spec);
    byId('chart').setAttribute('aria-label', `Chart of ${spec.yLabel} against ${spec.xLabel || 'the result'}; ` +
                               'the table below holds every number');
    results.legend(spec, styles);
  }
  byId('map-view').hidden = cmd !== 'map';
  if (cmd === 'map') mapview.draw(byId('map'), result, (t) => fill(byId('map-readout'), t));
}

function display(state, result) {
  shown = result;
  if (state.cmd === 'units') {
    // The Units tab (unitsview.js): its table, sortable, its chart and notes.
    results.show(result, () => '');
    unitsview.show(result, !!state.dropped);
    exporter.show(state.cmd, result);
    return;
  }
  if (result.method === 'exact' && state.cmd !== 'dice') {
    form.placeholder('experiment.trials', 'unused: this result is exact');
  }
  results.show(result, helpFor(state.pairs));
  verdict.show(result);
  methods.show(result);
  draw(state.cmd, result);
  // The export draws the chart as it is now (the x axis picked since).
  exporter.show(state.cmd, result, {
    chart: () => plots.specFor(state.cmd, result, choice, helpFor(state.pairs)),
    map: state.cmd === 'map' ? (ctx, w, h) => mapview.paint(ctx, result, w, h) : null,
  });
}

// Runs state. A run projected past progress.LONG_SECONDS is stopped after
// its first measurement and the player is asked (state 'asked'); `anyway`
// (the player's answer) runs it to the end.
async function run(state, anyway = false) {
  setState('busy');
  byId('cancel').disabled = false;
  let long = 0;
  let stopped = false;
  progress.start(anyway ? null : (projected) => {
    long = projected;
    engine.cancel();
  });
  try {
    const {result, ms} = state.cmd === 'units'
      ? await unitsview.exec(state, progress.update)
      : await engine.exec(state.cmd, state.pairs, progress.update);
    document.body.dataset.ms = ms.toFixed(3);
    if (result.ok) {
      display(state, result);
      setState('done');
      heading(state.cmd);
    } else {
      if (state.cmd === 'units') {
        await unitsview.refused(result); // notices and notes; no command line
        setState('error');
      } else {
        form.markError(result.field, result.message);
        showError(result.cli, result.command);
      }
    }
  } catch (e) {
    stopped = e.cancelled;
    if (e.cancelled && long) {
      progress.ask(waits.settings(state), long, () => {
        progress.clearAsk();
        run(state, true);
      });
      setState('asked');
    } else if (e.cancelled) {
      setState('cancelled');
    } else {
      showError(`The engine failed: ${e.message}`);
    }
  } finally {
    byId('cancel').disabled = true;
    progress.stop();
    // The player's own cancel is no error: a plain status (issue 52).
    if (stopped && !long) progress.cancelled();
  }
}

// The result's heading, naming the command, takes the focus and is
// scrolled to (issue 52: the focus stayed at the top of the page).
function heading(cmd) {
  const h = byId('result-heading');
  fill(h, `Result of ${cmd}`);
  h.focus({preventScroll: true});
  h.scrollIntoView({block: 'start'});
}

function setLink(state) {
  history.replaceState(null, '', location.pathname + location.search + link.format(state));
}

// The form of a state, without running it.
function show(state) {
  current = state;
  nav.show(byId('tabs'), state.cmd);
  if (state.cmd === 'units') return unitsview.render(byId('form-fields'), state);
  form.render(byId('form-fields'), state, {
    game: (ruleset, preset) => {
      // Another game: its form, no result of the old one, and a link to match.
      if (engine.busy()) engine.cancel();
      clearScreen();
      const pairs = [['experiment.ruleset', ruleset]];
      if (preset) pairs.push(['preset', preset]);
      // The Run tab starts from the game's example (issue 52), the core's.
      if (state.cmd === 'run') pairs.push(...form.example(ruleset, preset));
      show({cmd: state.cmd, pairs});
      setLink(current);
      setState('idle');
    },
    tab: select,
  });
}

// A tab with a panel of its own (tabs.js): the panel instead of the form,
// mounted from the link's pairs, the link kept to what it shows.
function panel(tab, pairs) {
  let node = byId('panel');
  if (!node) {
    node = el('section', {id: 'panel'});
    byId('form').before(node);
  }
  current = {cmd: tab.id, pairs};
  nav.show(byId('tabs'), tab.id);
  fill(node);
  node.hidden = false;
  byId('form').hidden = true;
  tab.mount(node, pairs);
  setState('idle');
}

// Back to a command's form from a panel.
function formShown() {
  if (byId('panel')) byId('panel').hidden = true;
  byId('form').hidden = false;
}

// Opens the link: its state in its tab's form, run when it asks for anything.
function route() {
  if (engine.busy()) engine.cancel();
  clearScreen();
  let state;
  try {
    state = link.parse(location.hash);
  } catch (e) {
    showError(e.message);
    return;
  }
  const tab = find(state.cmd);
  if (tab && !tab.command) return panel(tab, state.pairs);
  formShown();
  // A units link runs when it names an army (a dropped file cannot be in it).
  const asks = state.cmd === 'units' ? link.get(state.pairs, 'source') !== undefined
                                     : state.pairs.length > 0;
  if (asks && find(state.cmd)?.command && state.cmd !== 'dice' && state.cmd !== 'units' &&
      link.get(state.pairs, 'experiment.ruleset') === undefined) {
    // The ruleset the form shows is the one the link runs.
    state = {cmd: state.cmd, pairs: [['experiment.ruleset', form.defaultRuleset(state.cmd)], ...state.pairs]};
    setLink(state);
  }
  if (!asks && state.cmd === 'run' && state.pairs.length === 0) {
    // A first page shows the default game's example, to run as it is.
    const name = form.defaultRuleset('run');
    const game = form.rulesetNamed(name)?.games[0];
    state = {cmd: 'run', pairs: [['experiment.ruleset', name],
                                 ...(game?.preset ? [['preset', game.preset]] : []),
                                 ...form.example(name, game?.preset)]};
  }
  Promise.resolve(show(state)).then(() => {
    if (asks) run(state);
    else setState('idle');
  }, (e) => showError(`The page failed: ${e.message}`));
}

// Leaves the tab on screen as it is, to come back to.
function keep() {
  const tab = find(current.cmd);
  if (tab && !tab.command) {
    kept.set(current.cmd, {pairs: tab.pairs ? tab.pairs() : [], hash: location.hash});
    return;
  }
  const pairs = current.cmd === 'units' ? unitsview.read() : form.read();
  kept.set(current.cmd, {pairs, result: shown, hash: location.hash,
                         error: byId('error').hidden ? null : byId('error').textContent});
}

// Another tab: its own form and result as left, the ruleset carried over
// to a tab not visited yet.
function select(id) {
  if (id === current.cmd) return;
  if (engine.busy()) engine.cancel();
  keep();
  clearScreen();
  const back = kept.get(id);
  const tab = find(id);
  if (tab && !tab.command) {
    panel(tab, back ? back.pairs : []);
    setLink(current);
    return;
  }
  formShown();
  if (back) {
    const state = {cmd: id, pairs: back.pairs};
    Promise.resolve(show(state)).then(() => {
      history.replaceState(null, '', location.pathname + location.search + back.hash);
      if (back.result) display(state, back.result);
      if (back.error) showError(back.error);
      else setState(back.result ? 'done' : 'idle');
    }, (e) => showError(`The page failed: ${e.message}`));
    return;
  }
  const name = link.get(current.pairs, 'experiment.ruleset');
  const fits = name && id !== 'dice' && id !== 'units' && (id !== 'map' || form.rulesetNamed(name)?.map);
  const state = {cmd: id, pairs: fits ? [['experiment.ruleset', name]] : []};
  Promise.resolve(show(state)).then(() => {
    setLink({cmd: id, pairs: []});
    setState('idle');
  }, (e) => showError(`The page failed: ${e.message}`));
}

function submit(event) {
  event.preventDefault();
  // Dropped files stay the source until an army is picked (unitsview.js).
  if (current.cmd === 'units' && unitsview.submitDropped()) return;
  const pairs = current.cmd === 'units' ? unitsview.read() : form.read();
  const hash = link.format({cmd: current.cmd, pairs});
  if (hash === location.hash) route();
  else location.hash = hash;
}

async function boot() {
  if (location.protocol === 'file:') return; // js/file.js says why
  setState('loading');
  offline.register();
  const info = await engine.rulesets();
  form.init(info);
  glossary.show(byId('form'), info.glossary);
  nav.build(byId('tabs'), select);
  byId('form').addEventListener('submit', submit);
  // The method field's facts before a run (methods.js), as the form is edited.
  methods.watch(byId('form'), () => ({cmd: current.cmd, pairs: form.read()}), engine.check);
  byId('cancel').addEventListener('click', () => engine.cancel());
  window.addEventListener('hashchange', route);
  window.addEventListener('resize', () => shown && current.cmd !== 'units' && draw(current.cmd, shown));
  // Dropped files run without a link (none can carry them): the fragment
  // keeps only the tab, so reloading shows the tab, not a stale army.
  unitsview.init((pairs) => {
    if (engine.busy()) engine.cancel();
    history.replaceState(null, '', location.pathname + location.search + '#cmd=units');
    clearScreen();
    run({cmd: 'units', pairs: pairs.filter(([k]) => k !== 'source'), dropped: true});
  });
  route();
}

boot();
