// Kabari's service worker: it shows the notifications the server sends by Web Push (what a relative did with a
// request), and a click on one opens the dashboard. It caches nothing and handles no request: the app works the same
// with it or without it.

self.addEventListener('push', (event) => {
  let notice;
  try {
    notice = event.data ? event.data.json() : null;
  } catch {
    notice = null;
  }
  // A push must show something (the browser's rule for subscriptions made with userVisibleOnly).
  const title = notice && typeof notice.title === 'string' ? notice.title : 'Kabari';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: notice && typeof notice.body === 'string' ? notice.body : '',
      tag: notice && typeof notice.tag === 'string' ? notice.tag : undefined,
      icon: '/icons/kabari-192.png',
      data: { url: notice && typeof notice.url === 'string' ? notice.url : '/dashboard/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only a page of this site, whatever the message said: its path, on this origin.
  const url = (event.notification.data && event.notification.data.url) || '/dashboard/';
  const wanted = new URL(url, self.location.origin);
  const target = new URL(wanted.pathname, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).pathname === wanted.pathname);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
