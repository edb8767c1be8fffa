// SPDX-License-Identifier: GPL-3.0-or-later
// The about page: each library's Debian source package version, from
// SOURCES.txt as make web wrote it ("name version [suite]" a line).
const response = await fetch('SOURCES.txt');
if (response.ok) {
  const versions = new Map();
  for (const line of (await response.text()).split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    const [name, version, suite] = line.trim().split(/\s+/);
    versions.set(name, suite ? `${version} (Debian ${suite})` : version);
  }
  for (const cell of document.querySelectorAll('[data-package]')) {
    const v = versions.get(cell.dataset.package);
    if (v) cell.textContent = `${cell.dataset.package} ${v}`;
  }
}
