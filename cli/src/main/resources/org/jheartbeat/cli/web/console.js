// jheartbeat web console: live updates. The server sends a "refresh" event (server-sent events) when what the
// pages show has changed; the page then fetches its own body again (?fragment=1) and replaces <main>.
(function () {
  'use strict';
  var live = document.getElementById('live');
  var views = ['/', '/timeline', '/director'];
  if (!live || views.indexOf(location.pathname) < 0 || !window.EventSource) {
    return;
  }
  function reload() {
    var a = document.activeElement;
    if (a && (a.tagName === 'INPUT' || a.tagName === 'SELECT')) {
      return; // the user is typing a time range: do not pull it from under them
    }
    var url = location.pathname + (location.search ? location.search + '&' : '?') + 'fragment=1';
    fetch(url, {credentials: 'same-origin', cache: 'no-store'}).then(function (r) {
      if (r.status !== 200 || r.url.indexOf('/login') >= 0) {
        location.reload();
        return null;
      }
      return r.text();
    }).then(function (t) {
      if (t !== null && t !== undefined) {
        document.getElementById('main').innerHTML = t;
        document.body.setAttribute('data-refreshed', String(Date.now()));
      }
    });
  }
  var es = new EventSource('/stream');
  es.addEventListener('refresh', reload);
  es.onopen = function () { live.textContent = 'live'; live.className = 'live on'; };
  es.onerror = function () { live.textContent = 'reconnecting'; live.className = 'live off'; };
})();
