// SPDX-License-Identifier: GPL-3.0-or-later
// Offline use (issue 45, point 15): sw.js, the service worker, keeps the
// site and the data the player opened, so that once loaded the page works
// with no signal. Registered only where the browser offers it (an http
// page on localhost, or https).

export function register() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('sw.js').catch(() => {
    // No worker (a private window, a policy): the page works, online only.
  });
}

// The site's version (index.html's chargesim-version: a hash of its files).
export function version() {
  return document.querySelector('meta[name=chargesim-version]')?.content ?? '';
}
