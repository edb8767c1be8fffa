// SPDX-License-Identifier: GPL-3.0-or-later
// The page's tabs, in the order the tab bar shows them. A tab is either one
// of the engine's commands (command: true: its form is built from what the
// engine says, its result is the command's table), or a panel of its own,
// given as {id, label, mount(node, pairs), pairs()}: mount fills the panel
// from the link's pairs, pairs() gives back the link of what it shows.
// Adding a tab is one register() call from the tab's own module; the tab
// bar, the keyboard, the link and the kept state come with it.

export const TABS = [
  {id: 'run', label: 'Run', command: true},
  {id: 'map', label: 'Threat map', command: true},
  {id: 'compare', label: 'Compare', command: true},
  {id: 'dice', label: 'Dice', command: true},
  {id: 'units', label: 'Units', command: true},
];

export function register(tab) {
  if (!TABS.some((t) => t.id === tab.id)) TABS.push(tab);
}

export function find(id) {
  return TABS.find((t) => t.id === id);
}
