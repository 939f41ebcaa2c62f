// /settings/notifications (issue 64): turn this browser's notifications on
// or off. Asks the browser's permission, subscribes with the server's VAPID
// key (the section's data-key), and posts the subscription as JSON with the
// page's CSRF token. Without this script the page says it is needed.
'use strict';
(function () {
  var section = document.getElementById('push-browser');
  if (!section) return;
  var button = document.getElementById('push-toggle');
  var status = document.getElementById('push-status');
  var csrf = section.getAttribute('data-csrf');
  var key = section.getAttribute('data-key');
  document.getElementById('push-needs-script').hidden = true;

  function say(text) {
    status.textContent = text;
  }

  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    say('This browser cannot show notifications from web sites.');
    return;
  }

  function keyBytes(b64) {
    var s = (b64 + '==='.slice((b64.length + 3) % 4)).replace(/-/g, '+').replace(/_/g, '/');
    var raw = atob(s);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function post(path, fields) {
    var body = new URLSearchParams(fields);
    body.set('csrf_token', csrf);
    return fetch(path, { method: 'POST', body: body, credentials: 'same-origin' }).then(function (res) {
      if (!res.ok) throw new Error('the server answered ' + res.status);
      return res;
    });
  }

  function show(subscribed) {
    button.hidden = false;
    button.setAttribute('aria-pressed', subscribed ? 'true' : 'false');
    button.textContent = subscribed
      ? 'Turn off notifications in this browser'
      : 'Turn on notifications in this browser';
    if (Notification.permission === 'denied') {
      say('Notifications are blocked for this site in your browser\u2019s settings: allow them there first.');
    } else {
      say(subscribed ? 'This browser gets notifications.' : 'This browser gets no notifications.');
    }
  }

  navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (reg) {
    return reg.pushManager.getSubscription().then(function (sub) {
      show(!!sub);
      button.addEventListener('click', function () {
        button.disabled = true;
        reg.pushManager.getSubscription().then(function (current) {
          if (current) {
            return post('/settings/notifications/unsubscribe', { endpoint: current.endpoint })
              .then(function () { return current.unsubscribe(); })
              .then(function () { show(false); });
          }
          return Notification.requestPermission().then(function (answer) {
            if (answer !== 'granted') {
              show(false);
              say('Your browser was not allowed to show notifications, so nothing changed.');
              return;
            }
            return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) })
              .then(function (fresh) {
                return post('/settings/notifications/subscribe', { subscription: JSON.stringify(fresh.toJSON()) });
              })
              .then(function () { show(true); });
          });
        }).catch(function (err) {
          say('That did not work (' + err.message + '). Try again, or reload the page.');
        }).then(function () {
          button.disabled = false;
        });
      });
    });
  }).catch(function (err) {
    say('This browser could not start notifications (' + err.message + ').');
  });
})();
