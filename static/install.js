// On every page (issue 64): install the service worker (static/sw.js),
// and while offline keep forms from being sent: a kept page shown offline
// has its forms disabled, and a form sent without a network is held back
// with the offline banner.
'use strict';
(function () {
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(function () {});
  }
  var TEXT = "You are offline — this page may be out of date; moves can't be sent.";

  function banner() {
    if (document.getElementById('offline-banner')) return;
    var main = document.getElementById('main') || document.body;
    var div = document.createElement('div');
    div.className = 'notice offline';
    div.id = 'offline-banner';
    div.setAttribute('role', 'alert');
    var p = document.createElement('p');
    var strong = document.createElement('strong');
    strong.textContent = TEXT;
    p.appendChild(strong);
    div.appendChild(p);
    main.insertBefore(div, main.firstChild);
  }

  function disableForms() {
    var fields = document.querySelectorAll('form button, form input, form select, form textarea');
    for (var i = 0; i < fields.length; i++) {
      if (fields[i].type !== 'hidden') fields[i].disabled = true;
    }
  }

  if (document.body.hasAttribute('data-offline')) disableForms();

  document.addEventListener('submit', function (e) {
    if (document.body.hasAttribute('data-offline') || navigator.onLine === false) {
      e.preventDefault();
      banner();
    }
  }, true);
})();
