// The UI's two static files, embedded in the bundle as strings (no files to ship, no build step).
// Served from /assets/ so the CSP can forbid inline style and script.

export const APP_CSS = String.raw`
:root{--bg:#fbfbfa;--fg:#1d1f21;--muted:#5d6269;--line:#d9dcdf;--card:#fff;--accent:#1f5fbf;--accent-fg:#fff;--focus:#ff9d00;
--ok:#1d7f4e;--warn:#a86400;--bad:#b3261e;--c1:#2f6fd6;--c2:#5b8f9e;--c3:#8a5cc2;--c4:#8d949c;--mark:#ffe27a;--mark-fg:#1d1f21;color-scheme:light}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e6e3;--muted:#a2a8ae;--line:#33373c;--card:#1d2024;--accent:#7fb0ff;--accent-fg:#0d1117;--focus:#ffb84d;
--ok:#5cc98d;--warn:#e9a745;--bad:#ff7b72;--c1:#6ea4ff;--c2:#7fb8c6;--c3:#b892ee;--c4:#8d949c;--mark:#6b5a00;--mark-fg:#fff6cc;color-scheme:dark}}
*{box-sizing:border-box}
html{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
body{margin:0;min-height:100vh;display:flex;flex-direction:column}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:3px}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem}
.skip:focus{left:.5rem;z-index:10}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;padding:.5rem 1rem;border-bottom:1px solid var(--line);background:var(--card);position:sticky;top:0;z-index:5}
.brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}
header nav{display:flex;flex-wrap:wrap;gap:.1rem .2rem}
header nav a{padding:.3rem .55rem;border-radius:6px;text-decoration:none;color:var(--fg)}
header nav a[aria-current=page]{background:var(--accent);color:var(--accent-fg)}
header nav a:hover{background:var(--line)}
header nav a[aria-current=page]:hover{background:var(--accent)}
.quick{margin-left:auto}
.quick input{width:14rem}
main{flex:1;width:100%;max-width:1200px;margin:0 auto;padding:1rem 1.25rem 2rem}
main:focus{outline:none}
footer{padding:.75rem 1rem;border-top:1px solid var(--line);color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin:.25rem 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.muted,.sub{color:var(--muted)}.sub{font-size:.85rem}.small{font-size:.85rem}
input,select,textarea,button,.button{font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.35rem .55rem}
textarea{width:100%;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9rem}
button,.button{cursor:pointer;text-decoration:none;display:inline-block;background:var(--bg)}
button:hover,.button:hover{border-color:var(--accent)}
button.primary{background:var(--accent);color:var(--accent-fg);border-color:var(--accent)}
button.danger{color:var(--bad);border-color:var(--bad)}
.linkish{border:0;background:none;color:var(--accent);padding:0;text-decoration:underline}
label{display:block;font-size:.9rem}
.edit label{margin-top:.75rem}.edit input:not([type=checkbox]){width:100%}
.row{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end}.row label{margin-top:.75rem}.row input{width:auto!important}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:1rem 0}
form.inline{display:inline-flex;gap:.35rem;align-items:center;margin:0}
.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.5rem .75rem;align-items:end;padding:.75rem;border:1px solid var(--line);border-radius:8px;background:var(--card)}
.filters input,.filters select{width:100%}.filters .check{display:flex;gap:.35rem;align-items:center}.filters .check input{width:auto}
.filters .actions{margin:0}
.table-wrap{overflow-x:auto}
table.rows{width:100%;border-collapse:collapse;margin:.5rem 0}
table.rows th,table.rows td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
table.rows th a{color:var(--fg);text-decoration:none}
table.rows tbody tr:hover{background:color-mix(in srgb,var(--accent) 7%,transparent)}
.pager{display:flex;gap:1rem;align-items:center;margin:.75rem 0}
.badge{display:inline-block;font-size:.75rem;padding:.05rem .45rem;border-radius:999px;border:1px solid currentColor;margin:0 .25rem .15rem 0;white-space:nowrap}
.b-ok{color:var(--ok)}.b-warn{color:var(--warn)}.b-bad{color:var(--bad)}.b-c1{color:var(--c1)}.b-c2{color:var(--c2)}.b-c3{color:var(--c3)}.b-c4{color:var(--muted)}
.scope{font-size:.82rem;margin-right:.3rem}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.75rem;margin-bottom:1rem}
.tile{display:flex;flex-direction:column;padding:.75rem 1rem;border:1px solid var(--line);border-radius:10px;background:var(--card);text-decoration:none;color:var(--fg)}
.tile .n{font-size:1.6rem;font-weight:650}.tile .l{color:var(--muted);font-size:.85rem}
.tile:hover{border-color:var(--accent)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,30rem),1fr));gap:1rem}
figure.chart{margin:0;padding:.75rem;border:1px solid var(--line);border-radius:10px;background:var(--card);min-width:0}
figure.chart figcaption{font-weight:600;margin-bottom:.35rem}
figure.chart svg{width:100%;height:auto;display:block}
svg .lbl,svg .val,svg .tick{fill:var(--fg);font-size:13px}svg .tick{fill:var(--muted);font-size:11px}
svg .axis{stroke:var(--line)}svg .hit{fill:transparent}
svg .bar.c1{fill:var(--c1)}svg .bar.c2{fill:var(--c2)}svg .bar.c3{fill:var(--c3)}svg .bar.c4{fill:var(--c4)}svg .bar.ok{fill:var(--ok)}svg .bar.warn{fill:var(--warn)}svg .bar.bad{fill:var(--bad)}
svg a:hover .bar,svg a:focus .bar{opacity:.8}svg a:focus{outline:none}svg a:focus .hit,svg a:focus-visible rect.bar{stroke:var(--focus);stroke-width:3}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:.35rem 0 0;font-size:.85rem}
.legend .key{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:-1px}
.key.c1{background:var(--c1)}.key.c2{background:var(--c2)}.key.c3{background:var(--c3)}.key.c4{background:var(--c4)}.key.ok{background:var(--ok)}.key.warn{background:var(--warn)}.key.bad{background:var(--bad)}
.hits{list-style:none;padding:0}.hit{padding:.6rem .25rem;border-bottom:1px solid var(--line)}
.hit-link{display:block;color:var(--fg);text-decoration:none;overflow-wrap:anywhere}.hit-link:hover{text-decoration:underline}
mark{background:var(--mark);color:var(--mark-fg);border-radius:2px;padding:0 1px}
.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.search label{width:100%}.search input{flex:1;min-width:12rem;font-size:1.05rem}
.md{overflow-wrap:anywhere}.md pre{background:var(--card);border:1px solid var(--line);padding:.6rem;border-radius:6px;overflow-x:auto}
.md pre.plain{white-space:pre-wrap;overflow-wrap:anywhere;max-height:70vh;overflow-y:auto}.md table{border-collapse:collapse}.md th,.md td{border:1px solid var(--line);padding:.2rem .5rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88em}
.memory-body{font-size:1.05rem;padding:1rem;border:1px solid var(--line);border-radius:10px;background:var(--card)}
.memory-body>:first-child{margin-top:0}.memory-body>:last-child{margin-bottom:0}
.badges{margin-bottom:.5rem}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,24rem),1fr));gap:0 2rem}
dl.fm{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}dl.fm dt{color:var(--muted)}dl.fm dd{margin:0;overflow-wrap:anywhere}
details.more{margin:.5rem 0}details.more summary{cursor:pointer;color:var(--accent)}details.more form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin-top:.5rem}details.more input{min-width:16rem;flex:1}
.gate,.error,.flash{padding:.75rem 1rem;border-radius:8px;border:1px solid var(--line);margin:0 0 1rem;background:var(--card)}
.gate h2{margin-top:0;font-size:1.05rem}
.gate.bad,.error{border-color:var(--bad)}.gate.warn{border-color:var(--warn)}.gate.info,.flash{border-color:var(--accent)}
.ok-note{color:var(--ok)}
.crumbs{margin:0 0 .5rem;color:var(--muted);overflow-wrap:anywhere}
.card{padding:.75rem 1rem;border:1px solid var(--line);border-radius:10px;background:var(--card);margin-bottom:.75rem}
ul.plain{padding-left:1.1rem}
ul.fixes{list-style:none;padding:0}ul.fixes li{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem;padding:.5rem 0;border-bottom:1px solid var(--line)}
ul.fixes li>div:first-child{min-width:0;overflow-wrap:anywhere}ul.plain li,table.rows td{overflow-wrap:anywhere}
.fix{display:flex;flex-wrap:wrap;gap:.35rem;align-items:center}
.count{display:inline-block;min-width:1.4rem;text-align:center;font-size:.78rem;padding:0 .35rem;border-radius:999px;background:var(--line);color:var(--fg)}
.live-note{position:fixed;bottom:1rem;right:1rem;z-index:20;background:var(--card);border:1px solid var(--accent);padding:.5rem .75rem;border-radius:8px;max-width:22rem}
dialog{border:1px solid var(--line);border-radius:10px;background:var(--card);color:var(--fg);max-width:34rem}
dialog::backdrop{background:rgba(0,0,0,.35)}
dl.keys{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem}dl.keys dd{margin:0}
kbd{border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:0 .3rem;font-size:.85em;background:var(--bg)}
.hsec{border-top:1px solid var(--line);padding-top:.25rem}
[data-row].row-focus{outline:3px solid var(--focus);outline-offset:2px}
@media (max-width:640px){
html{font-size:14px}main{padding:.75rem}
header.top{padding:.5rem .6rem;gap:.25rem .5rem}.quick{margin-left:0;width:100%}.quick input{width:100%}
header nav a{padding:.25rem .4rem}
table.stack thead{display:none}table.stack tr{display:block;border-bottom:1px solid var(--line);padding:.35rem 0}table.stack td{display:block;border:0;padding:.1rem .25rem}
table.stack td[data-label]{display:inline-block;margin-right:.75rem;font-size:.85rem}table.stack td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}
.tiles{grid-template-columns:repeat(2,1fr)}
}
`;

// Search as you type, live updates (server-sent events), and keyboard navigation. No inline
// handlers anywhere: everything is wired here, after the document loads.
export const APP_JS = String.raw`
(function () {
  'use strict';
  var main = document.getElementById('main');
  var note = document.getElementById('live-note');
  // The message about what the user just did (a one-shot flash the server put in this page):
  // kept across live refreshes until the user leaves the page.
  var pageFlash = main && main.querySelector('.flash');

  // ---- search as you type, in the header's box on every page: /search/results returns the hits
  // as an HTML fragment. On the search page they fill #results; elsewhere the first keystroke
  // puts a results area in place of the page (and a history entry for /search?q=...).
  var q = document.getElementById('q');
  var results = document.getElementById('results');
  var run = null;
  if (q) {
    var seq = 0, timer = null, moved = false;
    var takeOver = function () {
      main.innerHTML = '<h1>Search</h1><p id="search-help" class="muted small">Results update as you type in the search box above. Arrow down or <kbd>j</kbd> moves into the hits.</p><div id="results" aria-live="polite" data-query=""></div>';
      results = document.getElementById('results');
      pageFlash = null;
      document.body.setAttribute('data-live', 'replace');
      [].forEach.call(document.querySelectorAll('header nav a'), function (a) {
        if (a.getAttribute('href') === '/search') a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
      });
    };
    run = function () {
      var mine = ++seq;
      var v = q.value;
      fetch('/search/results?q=' + encodeURIComponent(v), { credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(new Error(String(r.status))); })
        .then(function (html) {
          if (mine !== seq) return; // a newer keystroke already asked
          if (!results || !main.contains(results)) { takeOver(); moved = true; history.pushState(null, '', '/search'); }
          // a live refresh while the user arrows through the hits: focus stays on the same hit
          var at = document.activeElement, had = at && results.contains(at) ? at.getAttribute('href') : null;
          results.innerHTML = html;
          if (had) [].some.call(results.querySelectorAll('a[href]'), function (a) { return a.getAttribute('href') === had && (a.focus(), true); });
          results.setAttribute('data-query', v);
          document.title = (v ? 'Search: ' + v : 'Search') + ' \u00b7 cairn';
          history.replaceState(null, '', v ? '/search?q=' + encodeURIComponent(v) : '/search');
        })
        .catch(function () {});
    };
    q.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(run, 150);
    });
    // The page the user typed over comes back with Back.
    window.addEventListener('popstate', function () { if (moved) location.reload(); });
    if (results) {
      var end = q.value.length;
      q.setSelectionRange(end, end);
      // Typed before this script ran (a slow load right after a "g s"): no input event will come
      // for it, so ask now for what the box holds if the results are for something else.
      if (q.value !== (results.getAttribute('data-query') || '')) run();
    }
  }

  // ---- live updates: refresh the page's main content when the store changes elsewhere
  var refreshing = false, again = false;
  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    fetch(location.href, { credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(new Error(String(r.status))); })
      .then(function (text) {
        var doc = new DOMParser().parseFromString(text, 'text/html');
        var fresh = doc.getElementById('main');
        if (fresh && main) {
          var focusedId = document.activeElement && document.activeElement.id;
          var open = [].map.call(main.querySelectorAll('details[open]'), function (d) { return d.id; });
          if (results && main.contains(results)) {
            // keep what the user is typing: the results are asked again for the query now in
            // the box (through run's sequence, so an older answer never overwrites a newer one)
            if (run) run();
          } else {
            var flash = main.querySelector('.flash') || pageFlash;
            // what the user typed into a field (a removal's reason, say) survives the refresh
            var typed = {};
            [].forEach.call(main.querySelectorAll('input[id],textarea[id]'), function (el) {
              if (el.type !== 'hidden' && el.type !== 'checkbox' && el.type !== 'radio' && el.value !== el.defaultValue) typed[el.id] = el.value;
            });
            main.innerHTML = fresh.innerHTML;
            Object.keys(typed).forEach(function (id) { var el = document.getElementById(id); if (el && 'value' in el) el.value = typed[id]; });
            // the message about what the user just did stays until they leave the page
            if (flash && !main.querySelector('.flash')) main.insertBefore(flash, main.firstChild);
            open.forEach(function (id) { var d = id && document.getElementById(id); if (d) d.open = true; });
            if (focusedId) { var el = document.getElementById(focusedId); if (el) el.focus(); }
          }
        }
        var pc = doc.getElementById('pending-count'), cur = document.getElementById('pending-count');
        var link = document.querySelector('a[data-nav="p"]');
        if (cur) cur.remove();
        if (pc && link) link.appendChild(pc);
        document.body.setAttribute('data-refreshed', String(Date.now()));
      })
      .catch(function () {})
      .then(function () { refreshing = false; if (again) { again = false; refresh(); } });
  }
  if (window.EventSource) {
    var es = new EventSource('/events');
    es.addEventListener('change', function () {
      if (document.body.getAttribute('data-live') === 'notify') {
        note.textContent = 'Memories changed elsewhere. Reload to see them (your form is kept until you do).';
        note.hidden = false;
      } else refresh();
    });
    es.addEventListener('open', function () { document.body.setAttribute('data-live-ready', '1'); });
  }

  // ---- keyboard
  var keys = document.getElementById('keys');
  var keysOpen = document.getElementById('keys-open');
  if (keysOpen && keys) keysOpen.addEventListener('click', function () { keys.showModal(); });
  var go = false, goTimer = null;
  function typing(t) {
    return t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
  }
  function rows() { return [].slice.call(document.querySelectorAll('main [data-row]')); }
  function move(d) {
    var list = rows();
    if (!list.length) return;
    var i = list.indexOf(document.activeElement);
    var next = i === -1 ? (d > 0 ? 0 : list.length - 1) : Math.max(0, Math.min(list.length - 1, i + d));
    list[next].focus();
    list[next].scrollIntoView({ block: 'nearest' });
  }
  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (typing(t)) {
      if (e.key === 'Escape') t.blur();
      else if (e.key === 'ArrowDown' && t.id === 'q') { e.preventDefault(); move(1); }
      return;
    }
    if (go) {
      go = false;
      clearTimeout(goTimer);
      var link = document.querySelector('a[data-nav="' + e.key + '"]');
      if (link) { e.preventDefault(); link.click(); }
      return;
    }
    if (e.key === '/') {
      e.preventDefault();
      var box = document.getElementById('q');
      box.focus();
      box.select();
    } else if (e.key === 'g') {
      go = true;
      goTimer = setTimeout(function () { go = false; }, 1500);
    } else if (e.key === 'j' || (e.key === 'ArrowDown' && rows().indexOf(t) !== -1)) {
      e.preventDefault();
      move(1);
    } else if (e.key === 'k' || (e.key === 'ArrowUp' && rows().indexOf(t) !== -1)) {
      e.preventDefault();
      move(-1);
    } else if (e.key === '?') {
      if (keys && !keys.open) keys.showModal();
    } else {
      var el = document.querySelector('main [data-key="' + e.key + '"]');
      if (el) {
        e.preventDefault();
        if (el.tagName === 'SUMMARY') {
          el.parentElement.open = true;
          var first = el.parentElement.querySelector('input:not([type=hidden]),textarea');
          if (first) first.focus();
        } else el.click();
      }
    }
  });
})();
`;

/** A small cairn (three stacked stones) for the tab. */
export const ICON_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><ellipse cx="16" cy="26" rx="13" ry="5" fill="#5b8f9e"/><ellipse cx="16" cy="17" rx="9" ry="4.5" fill="#2f6fd6"/><ellipse cx="16" cy="9" rx="5.5" ry="3.5" fill="#8a5cc2"/></svg>';
