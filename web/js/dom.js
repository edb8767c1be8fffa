// SPDX-License-Identifier: GPL-3.0-or-later
// Building the page's elements. Every text that comes from a link, a file
// or the engine is set with textContent, never parsed as HTML: a value such
// as <img src=x onerror=...> stays text.

// el('td', {className: 'num'}, 'text', child...): an element with
// properties set as such (never innerHTML) and children appended; strings
// become text nodes.
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node[key] = value;
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

export function byId(id) {
  return document.getElementById(id);
}

// Replaces the children of node.
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}
