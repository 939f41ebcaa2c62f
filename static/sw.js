// Missive's service worker (issue 64). Pages come from the network first;
// the game pages this browser showed are kept, so that offline they can
// still be read, under a banner saying that nothing can be sent. It also
// shows the notifications the server pushes (/settings/notifications).
'use strict';

const PAGES = 'missive-pages-v1';
const FILES = 'missive-files-v1';
// The game pages kept: the most recently viewed.
const KEEP_PAGES = 40;
const OFFLINE_TEXT = "You are offline — this page may be out of date; moves can't be sent.";

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== PAGES && name !== FILES) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// A game's own page: /games/123 (not its JSON, PGN or move form).
function isGamePage(path) {
  return /^\/games\/[0-9]+$/.test(path);
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  // Logging out forgets the pages kept for this player.
  if (req.method === 'POST' && url.pathname === '/logout') {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (req.method !== 'GET') return;
  if (req.mode === 'navigate') {
    event.respondWith(page(req, url));
  } else if (url.pathname.startsWith('/static/')) {
    event.respondWith(file(req));
  }
});

async function page(req, url) {
  try {
    const res = await fetch(req);
    if (isGamePage(url.pathname) && res.ok && res.type === 'basic') {
      const cache = await caches.open(PAGES);
      // Deleted first so that the newest view is last in the cache's order.
      await cache.delete(url.pathname);
      await cache.put(url.pathname, res.clone());
      const keys = await cache.keys();
      for (const old of keys.slice(0, Math.max(0, keys.length - KEEP_PAGES))) {
        await cache.delete(old);
      }
    }
    return res;
  } catch (err) {
    const cache = await caches.open(PAGES);
    const kept = await cache.match(url.pathname);
    return kept ? offlineCopy(kept) : offlinePage(cache);
  }
}

// A kept page as it was, marked offline: the banner at the top of the
// content, and `data-offline` on the body, which static/install.js reads
// to disable the page's forms.
async function offlineCopy(kept) {
  const banner = '<div class="notice offline" id="offline-banner" role="alert"><p><strong>' +
    OFFLINE_TEXT + '</strong></p></div>';
  const html = (await kept.text())
    .replace(/<body([^>]*)>/, '<body$1 data-offline="1">')
    .replace('<main id="main">', '<main id="main">' + banner);
  const headers = new Headers(kept.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(html, { status: 200, headers });
}

// Offline, for a page not kept: say so, and list the games that are.
async function offlinePage(cache) {
  const links = (await cache.keys())
    .map((r) => new URL(r.url).pathname)
    .reverse()
    .map((p) => '<li><a href="' + p + '">Game ' + p.split('/').pop() + '</a></li>')
    .join('');
  const html = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Offline · Missive</title><link rel="stylesheet" href="/static/style.css"></head>' +
    '<body data-offline="1"><main id="main"><h1>You are offline</h1>' +
    '<p id="offline-banner">This page is not kept on this device, and nothing can be sent until you are back online.</p>' +
    (links ? '<p>Games you viewed here, as they were then:</p><ul>' + links + '</ul>' : '') +
    '</main></body></html>';
  return new Response(html, {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

// Style sheets, scripts and pictures: the network's copy when it answers,
// else the last one kept.
async function file(req) {
  const cache = await caches.open(FILES);
  try {
    const res = await fetch(req);
    if (res.ok && res.type === 'basic') await cache.put(req, res.clone());
    return res;
  } catch (err) {
    const kept = await cache.match(req);
    if (kept) return kept;
    throw err;
  }
}

// A notification from the server: JSON with kind, title, body, url, tag
// (src/push/render.rs).
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = {};
  }
  event.waitUntil(self.registration.showNotification(data.title || 'Missive', {
    body: data.body || '',
    tag: data.tag || undefined,
    icon: '/static/icons/icon-192.png',
    data: { url: data.url || '/' },
  }));
});

// A click opens the game (or tournament), in a window already showing it
// when there is one. Only pages of this site are opened.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  let target = new URL('/', self.location.origin);
  try {
    const asked = new URL((event.notification.data || {}).url || '/', self.location.origin);
    if (asked.origin === self.location.origin) target = asked;
  } catch (err) {
    // keep the home page
  }
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const c of open) {
      if (c.url === target.href && 'focus' in c) return c.focus();
    }
    return self.clients.openWindow(target.href);
  })());
});
