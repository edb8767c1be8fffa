// SPDX-License-Identifier: GPL-3.0-or-later
// Opened as a file (file://), a browser refuses the page's module scripts
// and its engine, so nothing else would ever run: this classic script says
// how to serve the folder instead (index.html's #file-message).
if (location.protocol === 'file:') {
  document.addEventListener('DOMContentLoaded', () => {
    document.getElementById('file-message').hidden = false;
    document.body.dataset.state = 'file';
  });
}
