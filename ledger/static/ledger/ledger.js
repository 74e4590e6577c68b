// The tile picker and small helps for the hand form. The page works without this file.

// A new hand's idempotency key, 128 random bits as the server makes them: the server stores a
// hand once however often its key is sent.
function newKey() {
  return Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(16)),
    function (byte) { return (byte + 256).toString(16).slice(1); }).join("");
}

// A designed wait of the live pages and the unsent hands, in ms, at the pace the server sets
// (<html data-waits>, percent: settings.LIVE_WAITS_PERCENT; the browser tests run them faster).
function paced(ms) {
  return ms * (+document.documentElement.dataset.waits || 100) / 100;
}

// Anything of a hand in the form: a number, tiles, a special, an event (all a redeal has).
function entered(form) {
  var chosen = "input[type=checkbox]:checked, input[name=event]:checked:not([value=''])";
  return !!form.querySelector(chosen) || Array.prototype.some.call(
    form.querySelectorAll("input[type=text]"),
    function (input) { return input.value.trim() !== ""; });
}

(function () {
  "use strict";
  function pipsOf(tile) { var p = tile.split(":"); return (+p[0]) + (+p[1]); }
  function tilesIn(input) { return input.value.trim() ? input.value.trim().split(/[\s,]+/) : []; }

  function setUp(form) {
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    var deck = JSON.parse(form.dataset.deck || "{}");
    var tileInputs = form.querySelectorAll("input[data-tiles]");

    function used(tile) {
      var n = 0;
      tileInputs.forEach(function (input) {
        tilesIn(input).forEach(function (t) { if (t === tile) n += 1; });
      });
      return n;
    }

    function refresh() {
      form.querySelectorAll(".picker").forEach(function (picker) {
        var input = form.querySelector("#" + picker.dataset.input);
        picker.querySelectorAll("button[data-tile]").forEach(function (button) {
          button.disabled = used(button.dataset.tile) >= deck[button.dataset.tile];
        });
        var chosen = picker.nextElementSibling;
        chosen.innerHTML = "";
        var total = 0;
        tilesIn(input).forEach(function (tile, i) {
          total += pipsOf(tile);
          var b = document.createElement("button");
          b.type = "button"; b.textContent = tile + " ✕"; b.className = "secondary";
          b.addEventListener("click", function () {
            var list = tilesIn(input); list.splice(i, 1); input.value = list.join(" "); refresh();
          });
          chosen.appendChild(b);
        });
        var sum = form.querySelector("#" + picker.dataset.sum);
        if (sum) sum.textContent = tilesIn(input).length ? "= " + total : "";
      });
    }

    form.querySelectorAll(".picker").forEach(function (picker) {
      var input = form.querySelector("#" + picker.dataset.input);
      Object.keys(deck).forEach(function (tile) {
        var b = document.createElement("button");
        b.type = "button"; b.dataset.tile = tile; b.textContent = tile;
        b.addEventListener("click", function () {
          if (used(tile) >= deck[tile]) return;
          input.value = tilesIn(input).concat([tile]).join(" ");
          refresh();
        });
        picker.appendChild(b);
      });
      input.addEventListener("input", refresh);
    });

    // Head specials belong to whoever leads; tail specials to everyone else.
    var first = form.querySelector("select[name=first]");
    function showSeats() {
      if (!first) return;
      form.querySelectorAll("fieldset[data-player]").forEach(function (set) {
        var leads = set.dataset.player === first.value;
        set.querySelectorAll("[data-seat=head]").forEach(function (el) { el.classList.toggle("hidden", !leads); });
        set.querySelectorAll("[data-seat=tail]").forEach(function (el) { el.classList.toggle("hidden", leads); });
      });
    }
    if (first) first.addEventListener("change", showSeats);

    // A pass is a score of 0: ticking pass fills in 0, and a 0 typed ticks pass. Pass, heads
    // and tails exclude each other, so ticking one clears the others on that player's line.
    form.querySelectorAll(".seat").forEach(function (seat) {
      var number = seat.querySelector(".numbers input");
      var pass = seat.querySelector("input[type=checkbox][value=pass]");
      var low = seat.querySelectorAll("input[type=checkbox][value^=head], input[type=checkbox][value^=tail]");
      if (pass && number) {
        pass.addEventListener("change", function () {
          // A 0 typed ticked pass already: the tap that follows, the natural order, confirms it.
          if (!pass.checked && pass.dataset.typed) pass.checked = true;
          pass.dataset.typed = "";
          if (pass.checked) number.value = "0";
          else if (number.value.trim() === "0") number.value = "";
        });
        number.addEventListener("input", function () {
          pass.checked = number.value.trim() === "0";
          pass.dataset.typed = pass.checked ? "yes" : "";
        });
      }
      // A score that only a head or tail can make proves it (the engine applies it too): the
      // special of this seat with the most tiles whose limit the score passes is ticked.
      if (number) number.addEventListener("input", function () {
        var pips = Number(number.value.trim());
        if (!/^[0-9]+$/.test(number.value.trim())) return;
        var proven = Array.prototype.filter.call(low, function (box) {
          return box.dataset.beyond && !box.closest(".chip").classList.contains("hidden") && pips > Number(box.dataset.beyond);
        }).sort(function (a, b) { return Number(b.dataset.beyond) - Number(a.dataset.beyond); })[0];
        if (proven && !proven.checked) {
          proven.checked = true;
          proven.dispatchEvent(new Event("change"));
        }
      });
      Array.prototype.forEach.call(low, function (box) {
        box.addEventListener("change", function () {
          if (!box.checked) return;
          Array.prototype.forEach.call(low, function (other) { if (other !== box) other.checked = false; });
          if (pass && pass.checked) { pass.checked = false; if (number.value.trim() === "0") number.value = ""; }
        });
      });
      if (pass) pass.addEventListener("change", function () {
        if (pass.checked) Array.prototype.forEach.call(low, function (box) { box.checked = false; });
      });
    });

    // The keyboard's "next" key (Enter) goes on to the next player's number; on the last one
    // it saves, as Enter does in any form.
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || !event.target.matches(".numbers input")) return;
      var numbers = Array.prototype.filter.call(form.querySelectorAll(".numbers input"),
        function (input) { return input.checkVisibility(); });
      var next = numbers[numbers.indexOf(event.target) + 1];
      if (!next) return;
      event.preventDefault();
      next.focus();
    });

    // Declared doubles: the caller has no line to fill in.
    var caller = form.querySelector("select[name=event_player]");
    function showCaller() {
      var doubles = form.querySelector("input[name=event][value=declared_doubles]");
      form.querySelectorAll(".seat").forEach(function (seat) {
        seat.classList.toggle("hidden", !!(doubles && doubles.checked && caller && seat.dataset.player === caller.value));
      });
    }
    form.addEventListener("change", showCaller);

    // What was said about a field goes once the field is changed: no stale message stays.
    form.addEventListener("input", function (event) {
      var seat = event.target.closest(".seat, .lead, .hand-event");
      if (!seat) return;
      seat.querySelectorAll(".error").forEach(function (error) { error.remove(); });
      seat.querySelectorAll("[aria-invalid]").forEach(function (input) { input.removeAttribute("aria-invalid"); });
    });
    showSeats();
    showCaller();
    refresh();
  }

  function setUpAll() { document.querySelectorAll("form[data-deck]").forEach(setUp); }
  document.addEventListener("DOMContentLoaded", setUpAll);
  document.addEventListener("htmx:afterSettle", setUpAll);

  // What a save or a preview came to (the hand saved, refused, or taken by another phone) is
  // brought into view at the top of the screen and focused, so that it is seen and read out.
  function showOutcome(root) {
    var outcome = root && root.querySelector("#problems, #taken, #saved, #preview, #changed");
    if (!outcome) return;
    outcome.scrollIntoView({ block: "start" });
    outcome.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target && target.id === "hand-form") showOutcome(document.getElementById("hand-form"));
  });
  document.addEventListener("DOMContentLoaded", function () { showOutcome(document.getElementById("hand-form")); });

  // A hand another phone saved, corrected or voided is marked for a moment in the latest hands
  // and read out, politely, as what became of it: nothing moves, and what this phone is typing
  // keeps its place and focus. This phone's own save (#saved says which hand) is read out by
  // its own panel; its own correction or void opens the page again, which says it.
  var ARRIVED_FOR = 5000; // ms
  var before = null;
  function handVersions() {
    var versions = {};
    document.querySelectorAll("#hands > li[id^=hand-]").forEach(function (li) {
      versions[li.id] = li.dataset.version;
    });
    return versions;
  }
  // What the hand's line says happened to it since ``seen``: "arrived" (saved), "voided",
  // "corrected", or nothing.
  function becameOf(li, seen, own) {
    if (!(li.id in seen)) return own && own.dataset.number === String(li.value) ? null : "arrived";
    if (seen[li.id] === li.dataset.version) return null;
    return li.hasAttribute("data-voided") ? "voided" : "corrected";
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "live") before = handVersions();
  });
  document.addEventListener("ledger-live", function () { before = handVersions(); }); // from a stream
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (!before || !target || target.id !== "live") return;
    var seen = before;
    before = null;
    var own = document.getElementById("saved");
    var region = document.getElementById("arrived");
    var told = [];
    document.querySelectorAll("#hands > li[id^=hand-]").forEach(function (li) {
      var kind = becameOf(li, seen, own);
      if (!kind || !region) return;
      li.classList.add("arrived");
      setTimeout(function () { li.classList.remove("arrived"); }, ARRIVED_FOR);
      // Who did it, where the phone said whose it is ("Hand 3 corrected by Bob.").
      var by = li.dataset.by;
      var said = region.dataset[by ? kind + "By" : kind].replace("{n}", li.value);
      told.push(by ? said.replace("{who}", by) : said);
    });
    // Said anew each time, in place of what was said before: notices do not pile up.
    if (told.length) region.textContent = told.reverse().join(" ");
  });

  // When another phone saves a hand, bring this phone's empty form up to the next hand: where
  // it is, from what the live part says of the next hand, or fetched where the table takes
  // none (it is locked, or the game over: the form gives way to the notice). A form with
  // anything typed in is left alone, also if it was typed in while the next hand's form was
  // on its way: saving it is told the hand is taken.
  function typedIn(form) {
    return Array.prototype.some.call(
      form.querySelectorAll("input[type=text]"),
      function (input) { return input.value.trim() !== ""; });
  }
  document.addEventListener("htmx:afterSettle", function () {
    var live = document.getElementById("live");
    var form = document.getElementById("record-form");
    if (!live || !form || !window.htmx) return;
    var number = form.querySelector("input[name=number]");
    if (!number || +live.dataset.nextNumber <= +number.value || typedIn(form)) return;
    if (!live.dataset.nextFirst) {
      htmx.ajax("GET", live.dataset.formUrl, { target: "#hand-form", swap: "outerHTML" });
      return;
    }
    var outcome = document.getElementById("outcome");
    if (outcome) outcome.replaceChildren(); // this phone's last outcome is not the table's now
    document.dispatchEvent(new CustomEvent("ledger-next", { detail: {
      number: +live.dataset.nextNumber,
      first: live.dataset.nextFirst,
      direction: live.dataset.nextDirection,
      clear: true
    } }));
  });
  // The form becomes the next hand's where it is, nothing drawn again ("ledger-next": in the
  // answer to this form's save, ledger/tables/views.py, _in_place; from the live part, when
  // another phone saved a hand; or from the hands kept on this phone, skipKept below). Its
  // number, and who leads and which way where that is known. Cleared (a new hand, under a new
  // key), or what was typed stays as the next hand (another phone saved this one first). What
  // was wrong with an earlier try is gone either way.
  document.addEventListener("ledger-next", function (event) {
    var form = document.getElementById("record-form");
    if (!form) return;
    var next = event.detail;
    form.querySelector("input[name=number]").value = next.number;
    var heading = document.getElementById("hand-number");
    if (heading) heading.textContent = heading.dataset.heading.replace("{n}", next.number);
    if (next.clear) {
      form.dataset.cleared = Date.now();
      form.querySelector("input[name=key]").value = newKey();
      form.querySelectorAll("input[type=text]").forEach(function (input) {
        input.value = "";
        input.dispatchEvent(new Event("input")); // the tile picker and its sum follow
      });
      form.querySelectorAll("input[type=checkbox]").forEach(function (box) { box.checked = false; });
      var played = form.querySelector("input[name=event][value='']");
      if (played) played.checked = true;
      var caller = form.querySelector("select[name=event_player]");
      if (caller) caller.value = "";
      form.dispatchEvent(new Event("change")); // who is asked for follows the hand's event
    }
    var first = form.querySelector("select[name=first]");
    if (first && next.first) {
      first.value = next.first;
      first.dispatchEvent(new Event("change", { bubbles: true })); // who may claim a head
      var unknown = document.getElementById("leader-unknown");
      if (unknown) unknown.classList.add("hidden");
    }
    var way = next.direction && form.querySelector("input[name=direction][value=" + next.direction + "]");
    if (way) way.checked = true;
    form.querySelectorAll("#problems, .error").forEach(function (said) { said.remove(); });
    form.querySelectorAll("[aria-invalid]").forEach(function (input) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    });
  });
  // "Discard mine", under the notice that another phone saved the hand first: the form is
  // cleared where it is, for the hand it already is (the next one), and the notice goes.
  // Without scripts the link opens the table's page again, its form empty.
  document.addEventListener("click", function (event) {
    var discard = event.target.closest && event.target.closest("#discard-mine");
    var form = document.getElementById("record-form");
    if (!discard || !form) return;
    event.preventDefault();
    document.dispatchEvent(new CustomEvent("ledger-next", { detail: {
      number: +form.querySelector("input[name=number]").value,
      clear: true
    } }));
    var taken = document.getElementById("taken");
    if (taken) taken.remove();
    var box = form.querySelector(".seat input[type=text]");
    if (box) box.focus();
  });
  // A double tap on Save is one save. A tap while the save is on its way is dropped (the
  // form's hx-sync); one that lands on the next hand's form, cleared a moment ago and still
  // empty, was meant for the hand just saved: it sends nothing, and "Hand N saved" stays.
  // Later, an empty form sent is told what it lacks, as ever.
  var SECOND_TAP = 1500; // ms
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    if (!form || form.id !== "record-form" || entered(form)) return;
    if (Date.now() - (+form.dataset.cleared || 0) < SECOND_TAP) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "hand-form" || event.detail.requestConfig.verb !== "get") return;
    var form = document.getElementById("record-form");
    if (form && typedIn(form)) event.detail.shouldSwap = false;
  });
})();

// A new table of a group: a player tapped takes the next free seat, tapped again gives it back.
// The list keeps the seated first, in the order they sit (the stylesheet numbers them), and the
// form sends the ticked in the order listed: without this script, that is the order they sit.
(function () {
  document.addEventListener("change", function (event) {
    var box = event.target;
    var item = box.closest && box.closest(".seats-taken > li");
    if (!item) return;
    var free = Array.prototype.find.call(item.parentNode.children, function (li) {
      return li !== item && !li.querySelector("input").checked;
    });
    item.parentNode.insertBefore(item, free || null);
    box.focus();
  });
})();

// A live page follows its stream (ledger/web/push.py): a table's page, and an event's or a
// group's (the standings, the projector, the organiser's page, the group's page). The element
// with data-stream names the stream; the page's live parts fetch themselves again when the body
// hears "ledger-changed" (hx-trigger="ledger-changed from:body").
// A table's stream sends its revision when it opens, whenever it changes and every 20 s while it
// does not; the page says which revision it shows (?rev= in data-stream), and whenever that is
// not the table's, the stream sends the live part itself (event "live"), shown as it comes: on
// a stream the live part is not fetched, not even after this phone's own save. A stream that
// sends a revision the page does not show (it could not have the live part) has it fetched.
// An event's or group's stream only says that one of its tables changed: its number changes. Its
// live parts are fetched then, and whenever a stream opens, since something may have changed
// while none was open; such a fetch carries the mark the parts show (?v=) and is answered 204
// if nothing changed. A stream that breaks is opened again by the browser: nothing is missed.
// Where no stream can be had (a browser without EventSource, a server or proxy that refuses it
// or holds it back), the page asks every data-poll ms instead (a table's every 3 s), and tries a
// stream again a minute or so later. <html data-live> says which it is doing: "stream" or "poll".
(function () {
  "use strict";
  var POLL_EVERY = 3000, FIRST_WITHIN = 10000, QUIET_FOR = 50000, AGAIN_AFTER = 60000; // ms
  var source = null, watchdog = null, poller = null, again = null;
  var announced = null; // what the stream sent last
  var opened = false; // a stream has opened and sent nothing yet
  var carried = false; // the open stream carries the live part
  var asking = false; // this code asks for the live parts (not a save's HX-Trigger)

  function follower() { return document.querySelector("[data-stream]"); }
  function livePart(elt) { return /^ledger-changed\b/.test(elt.getAttribute("hx-trigger") || ""); }
  function changed() {
    if (!window.htmx) return;
    asking = true;
    try { htmx.trigger(document.body, "ledger-changed"); } finally { asking = false; }
  }
  function mode(name) { document.documentElement.dataset.live = name; }
  // Whether what the stream sent last is news to the page shown.
  function news(sent) {
    var shown = follower();
    if (!shown) return false;
    return "revision" in shown.dataset ? sent !== shown.dataset.revision : opened || sent !== announced;
  }

  // The page moved: once it is put away (the screen off, another app or page), the service
  // worker fetches it again, so that, reopened with no connection, it is the latest this phone
  // saw (templates/web/sw.js). Once then, not at every change: a hall's phones on streams would
  // each fetch their whole page again after every hand.
  var moved = false;
  function keepFresh() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (moved && worker) worker.postMessage({ keep: location.pathname, fresh: true });
    moved = false;
  }
  // Anything swapped in: a live part fetched or carried by the stream, this phone's own save
  // (a fetch answered 204 swaps nothing). At the swap, not the settle 20 ms later: a player who
  // leaves as soon as "Hand 1 saved" shows has moved the page.
  document.addEventListener("htmx:afterSwap", function () { moved = true; });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") keepFresh();
  });
  window.addEventListener("pagehide", keepFresh);

  function close() {
    if (source) source.close();
    source = null;
    carried = false;
    clearTimeout(watchdog);
  }
  // The live part a stream sent, swapped in as a fetched one is (the same events follow).
  function show(html) {
    var shown = follower();
    if (!shown || !window.htmx) return;
    shown.dispatchEvent(new CustomEvent("ledger-live", { bubbles: true }));
    htmx.swap(shown, html, { swapStyle: "outerHTML" }, { eventInfo: { target: shown } });
  }
  function poll() {
    close();
    mode("poll");
    if (!poller) poller = setInterval(changed, paced(+follower().dataset.poll || POLL_EVERY));
    clearTimeout(again);
    again = setTimeout(open, paced(AGAIN_AFTER) * (1 + Math.random() / 2));
  }
  function expect(within, otherwise) {
    clearTimeout(watchdog);
    watchdog = setTimeout(otherwise, within);
  }
  function open() {
    var shown = follower();
    if (!shown) return;
    close();
    source = new EventSource(shown.dataset.stream);
    carried = /[?&]rev=/.test(shown.dataset.stream);
    expect(FIRST_WITHIN, poll); // nothing at all: a proxy holds the stream back
    source.addEventListener("open", function () { opened = true; });
    function heard(event) { // what the stream sent: whether it is news to the page
      mode("stream");
      clearInterval(poller);
      poller = null;
      expect(QUIET_FOR, open); // gone quiet without breaking: open it again
      var fresh = news(event.lastEventId);
      announced = event.lastEventId;
      opened = false;
      return fresh;
    }
    source.addEventListener("revision", function (event) { if (heard(event)) changed(); });
    source.addEventListener("live", function (event) { if (heard(event)) show(event.data); });
    source.addEventListener("error", function () {
      // Refused (a 503 from a server without streams, a 404, a 429): poll. Otherwise the
      // browser opens it again by itself.
      if (source && source.readyState === EventSource.CLOSED) poll();
    });
  }

  // A busy server sheds the live parts' fetches (503, or 429) with Retry-After: ask again
  // after that long, plus up to half again at random, so that the phones of a hall do not all
  // come back in the same second. A fetch that failed otherwise (the connection gone for a
  // moment) while on a stream is made again, and at once when the phone is back online.
  var pollAfter = 0;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!livePart(event.detail.elt)) return;
    if (Date.now() < pollAfter || (carried && !asking)) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!livePart(event.detail.elt) || event.detail.successful) return;
    if (xhr && (xhr.status === 503 || xhr.status === 429)) {
      var seconds = parseFloat(xhr.getResponseHeader("Retry-After")) || 5;
      pollAfter = Date.now() + seconds * 1000 * (1 + Math.random() / 2);
    }
    var shown = follower();
    if (announced !== null && shown && !("revision" in shown.dataset && announced === shown.dataset.revision)) {
      setTimeout(changed, Math.max(paced(2000), pollAfter - Date.now() + 100)); // after a Retry-After
    }
  });
  window.addEventListener("online", function () { if (follower()) changed(); });
  document.addEventListener("DOMContentLoaded", function () {
    if (!follower()) return;
    if (window.EventSource) open(); else poll();
  });
})();

// The group moves on together: on a table's page, where this phone opened the group's link
// (and so the page knows the group: a table's own link says nothing of it), #moved-on says
// when the group has started a new table with this table's players, and links to it. It is
// fetched again whenever the group's stream says one of the group's tables changed, and when
// the stream opens, since a table may have been started while none was open. Where no stream
// can be had, it is fetched every 10 s, as a group's page polls.
(function () {
  "use strict";
  var POLL_EVERY = 10000; // ms
  var source = null, poller = null, last = null;
  function ask() { if (window.htmx) htmx.trigger(document.body, "ledger-group-changed"); }
  function poll() {
    if (source) source.close();
    source = null;
    ask();
    if (!poller) poller = setInterval(ask, paced(POLL_EVERY));
  }
  document.addEventListener("DOMContentLoaded", function () {
    var notice = document.querySelector("[data-group-stream]");
    if (!notice) return;
    if (!window.EventSource) { poll(); return; }
    source = new EventSource(notice.dataset.groupStream);
    source.addEventListener("open", function () { last = null; });
    source.addEventListener("revision", function (event) {
      if (event.lastEventId === last) return; // the stream's heartbeat: nothing new
      last = event.lastEventId;
      ask();
    });
    source.addEventListener("error", function () {
      // Refused (a server without streams: 503): poll. Otherwise the browser opens it again.
      if (source && source.readyState === EventSource.CLOSED) poll();
    });
  });
})();

// The projector turns to its next screen every 10 s (#projector's request): the next after the
// one shown, which a change at a table may have fetched again since (#board's data-next).
(function () {
  "use strict";
  document.addEventListener("htmx:configRequest", function (event) {
    var board = document.getElementById("board");
    if (event.detail.elt.id === "projector" && board) event.detail.parameters.page = board.dataset.next;
  });
})();

// A hand that could not be sent (no connection, server down) is kept on this phone and sent
// again, with the same idempotency key: it is stored once. Only a network error or a server
// error (5xx; 408 and 429 say "later") is tried again: after 2 s, doubling to a minute, and at
// once when the browser says it is online. A hand the server refuses (4xx: the table locked,
// the hand invalid or already taken) is dropped, and the phone says why. A kept hand moves the
// form on to the next one, so that a table can go on with no connection (a table page opened
// before comes from the service worker's copy: templates/web/sw.js).
(function () {
  "use strict";
  var STORE = "ledger-unsent:" + location.pathname;
  var FIRST_WAIT = paced(2000), LONGEST_WAIT = paced(60000);
  var wait = FIRST_WAIT, timer = null, sending = false;
  var lastAction = "save";

  function load() { try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; } }
  function keep(queue) { localStorage.setItem(STORE, JSON.stringify(queue)); show(queue); }
  // The banner: the hands kept, else that there is no connection, else nothing.
  function show(queue) {
    var status = document.getElementById("unsent");
    if (!status) return;
    var offline = navigator.onLine === false;
    status.classList.toggle("hidden", !queue.length && !offline);
    // The page gives the sentence for one hand and for more: the app's languages have at most
    // these two forms (English; Chinese and Korean have one, given as both).
    var waiting = queue.length === 1 ? status.dataset.waitingOne : status.dataset.waitingOther;
    status.textContent = queue.length ? waiting.replace("{n}", queue.length)
      : offline ? status.dataset.offline : "";
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"]; } catch (e) { return ""; }
  }
  function retryable(status) { return status >= 500 || status === 408 || status === 429; }

  // The form, made ready here for the hand after the last one kept, as the server would have
  // sent it but for who leads: that follows from the kept hands' results, which only the
  // server works out, so the form keeps the last leader and says to check it.
  function skipKept() {
    var form = document.getElementById("record-form");
    if (!form) return;
    var number = form.querySelector("input[name=number]");
    var next = load().reduce(function (most, item) {
      return Math.max(most, +new URLSearchParams(item).get("number") + 1);
    }, 0);
    if (next <= +number.value) return;
    document.dispatchEvent(new CustomEvent("ledger-next", { detail: { number: next, clear: true } }));
    var leader = document.getElementById("leader-unknown");
    if (leader) leader.classList.remove("hidden");
  }

  // What the server said: its plain-text message (a locked table), else the form's first
  // error or the notice that the hand is taken, else the status.
  function reasonIn(status, statusText, type, text) {
    if (/^text\/plain/.test(type)) return text.trim();
    var said = new DOMParser().parseFromString(text, "text/html")
      .querySelector("#taken strong, #problems li, .errorlist li, .errorlist");
    return said ? said.textContent.trim().replace(/\s+/g, " ") : (status + " " + statusText).trim();
  }
  // A kept hand, as it was entered, in a line: "Anna 2, Bob 0 pass, ..." (the form may
  // already hold the next hand, so what was refused is said, to be entered again).
  function entryText(sent) {
    var parts = [];
    var event = document.querySelector("#record-form input[name=event][value='" + (sent.get("event") || "-") + "']");
    if (event) parts.push(event.closest("label").textContent.trim() + " " + (sent.get("event_player") || ""));
    document.querySelectorAll("#record-form .seat").forEach(function (seat) {
      var i = seat.id.replace("player-", "");
      var said = [];
      sent.forEach(function (value, key) {
        if (!value || key.slice(-(i.length + 1)) !== "-" + i) return;
        var box = key.indexOf("specials-") === 0 && seat.querySelector("input[value='" + value + "']");
        said.push(box ? box.closest("label").textContent.trim() : value);
      });
      if (said.length) parts.push(seat.dataset.player + " " + said.join(" "));
    });
    return parts.join(", ");
  }
  function refuse(number, reason, sent) {
    var alert = document.getElementById("refused");
    if (!alert) return;
    var line = document.createElement("p");
    line.textContent = alert.dataset.refused.replace("{n}", number || "?")
      .replace("{reason}", function () { return reason; });
    if (sent) {
      var entry = entryText(sent);
      if (entry) line.textContent += " " + alert.dataset.entered.replace("{entry}", function () { return entry; });
    }
    alert.appendChild(line);
    alert.classList.remove("hidden");
  }

  function later() {
    if (timer) return;
    timer = setTimeout(function () { timer = null; flush(); }, wait);
    wait = Math.min(wait * 2, LONGEST_WAIT);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#record-form button[name=action]");
    if (button) lastAction = button.value;
  });
  function saving(event) {
    var form = event.detail.elt;
    return form && form.id === "record-form" && lastAction === "save" ? form : null;
  }

  function stash(event) {
    var form = saving(event);
    if (!form || !entered(form)) return;
    var data = new URLSearchParams(new FormData(form));
    data.set("action", "save");
    var queue = load();
    if (!queue.some(function (item) { return new URLSearchParams(item).get("key") === data.get("key"); })) {
      queue.push(data.toString());
    }
    keep(queue);
    later();
    skipKept();
  }
  // Saving a hand again answers what the phone said about the refused one.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var alert = document.getElementById("refused");
    if (!alert || !saving(event)) return;
    alert.textContent = "";
    alert.classList.add("hidden");
  });
  document.addEventListener("htmx:sendError", stash);
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var form = saving(event);
    if (!xhr || !form) return;
    if (retryable(xhr.status)) { stash(event); return; }
    var type = xhr.getResponseHeader("Content-Type") || "";
    refuse(new FormData(form).get("number"), reasonIn(xhr.status, xhr.statusText, type, xhr.responseText));
  });

  // The server's answer to a kept hand: the form as htmx would have shown it.
  function answered(body, response, text) {
    var sent = new URLSearchParams(body);
    if (!response.ok) {
      var type = response.headers.get("Content-Type") || "";
      refuse(sent.get("number"), reasonIn(response.status, response.statusText, type, text), sent);
      return;
    }
    // An htmx request is answered 200 with the form: saved, or its errors, or the hand taken.
    var page = new DOMParser().parseFromString(text, "text/html");
    if (!page.getElementById("saved")) refuse(sent.get("number"), reasonIn(200, "", "text/html", text), sent);
    var form = document.getElementById("record-form");
    var key = form && form.querySelector("input[name=key]");
    // Show the answer in place when the form holds this very hand, or nothing entered; a
    // saved hand's answer brings the form for the next hand, which may be kept here too.
    var mine = key && key.value === sent.get("key");
    var target = document.getElementById("hand-form");
    if (target && (mine || !form || !entered(form)) && window.htmx) {
      target.outerHTML = text;
      htmx.process(document.getElementById("hand-form"));
      if (page.getElementById("saved")) skipKept();
    }
    if (window.htmx) htmx.trigger(document.body, "ledger-changed");
  }

  function flush() {
    var queue = load();
    show(queue);
    if (!queue.length || sending) return;
    sending = true;
    clearTimeout(timer);
    timer = null;
    var body = queue[0];
    // Where the page saves hands (a page kept from before the save had its own address posts
    // to the table's, which still saves).
    var unsent = document.getElementById("unsent");
    fetch((unsent && unsent.dataset.saveUrl) || location.pathname, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf(), "Content-Type": "application/x-www-form-urlencoded" },
      body: body
    }).then(function (response) {
      if (retryable(response.status)) throw new Error("the server failed: " + response.status);
      return response.text().then(function (text) { return { response: response, text: text }; });
    }).then(function (answer) {
      sending = false;
      wait = FIRST_WAIT;
      keep(load().filter(function (item) { return item !== body; }));
      answered(body, answer.response, answer.text);
      flush();
    }, function () {
      sending = false;
      later();
    });
  }
  window.addEventListener("online", function () {
    wait = FIRST_WAIT;
    flush();
  });
  window.addEventListener("offline", function () { show(load()); });
  document.addEventListener("DOMContentLoaded", function () {
    // The page may be the service worker's copy, whose keys a saved hand or a table played
    // again has already used: every table page shown gets keys of its own, and skips the hands
    // kept here.
    document.querySelectorAll("#record-form input[name=key], #group-line input[name=key]")
      .forEach(function (key) { key.value = newKey(); });
    skipKept();
    flush();
  });
})();

// Installable, and pages open with no connection (ledger/web/pwa.py, templates/web/sw.js).
// Browsers run a service worker only on https:// and on localhost; elsewhere the hands are
// still kept (above), but no page can be reopened offline.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    var url = document.body.dataset.serviceWorker;
    if (!url) return;
    // Without it the page works as before: nothing to say.
    navigator.serviceWorker.register(url).catch(function () {});
    // A page that loaded while the worker was starting is claimed and kept now (sw.js).
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ keep: location.pathname });
    });
  });
})();

// A round's countdown: <time class="countdown" datetime="..."> shows the minutes left.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll("time.countdown").forEach(function (clock) {
      var left = Math.max(0, Date.parse(clock.getAttribute("datetime")) - Date.now());
      var seconds = Math.floor(left / 1000);
      clock.textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
      clock.classList.toggle("minus", left === 0);
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();

// The new-table form: only the chosen game's options are shown (without this script all are;
// the others are ignored), and the names this phone has used are suggested. Those names are
// kept on this phone, not sent anywhere: the server suggests only a signed-in organiser's own.
(function () {
  "use strict";
  var NAMES = "ledger-names", STARTING = "ledger-names-starting", MOST = 100;

  function read(store, key) { try { return JSON.parse(store.getItem(key) || "[]"); } catch (e) { return []; } }
  function same(a, b) { return a.normalize("NFKC").toLowerCase() === b.normalize("NFKC").toLowerCase(); }
  function without(names, these) {
    return names.filter(function (name) { return !these.some(function (t) { return same(t, name); }); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("session-form");
    if (!form) {
      // The names are kept once the table is started: this is its page, not the form again.
      var started = read(sessionStorage, STARTING);
      sessionStorage.removeItem(STARTING);
      if (started.length && document.getElementById("record-form")) {
        var names = started.concat(without(read(localStorage, NAMES), started));
        localStorage.setItem(NAMES, JSON.stringify(names.slice(0, MOST)));
      }
      return;
    }
    sessionStorage.removeItem(STARTING);

    function showOptions() {
      var chosen = form.querySelector("input[name=game]:checked");
      var names = chosen ? chosen.dataset.options.split(" ") : [];
      form.querySelectorAll(".option").forEach(function (el) { el.classList.toggle("hidden", names.indexOf(el.dataset.option) < 0); });
      // Only as many seats as the game takes (Tiu Yu: 3 at most); a seat put away keeps what
      // was typed in it, and is not sent.
      var most = chosen ? Number(chosen.dataset.players) : 0;
      form.querySelectorAll("[data-seat]").forEach(function (el) {
        var away = most > 0 && Number(el.dataset.seat) > most;
        el.classList.toggle("hidden", away);
        el.querySelectorAll("input").forEach(function (input) { input.disabled = away; });
      });
      // A choice some games do not take (Kko-li-but-i-gi's payments, say) shows only for those
      // that do; one left chosen for another game goes back to the game's usual.
      form.querySelectorAll("option[data-games]").forEach(function (option) {
        option.hidden = !chosen || option.dataset.games.split(" ").indexOf(chosen.value) < 0;
        if (option.hidden && option.selected) option.parentNode.value = "";
      });
    }
    form.addEventListener("change", showOptions);
    showOptions();

    var list = document.getElementById("known-players");
    var offered = Array.prototype.map.call(list.options, function (option) { return option.value; });
    without(read(localStorage, NAMES), offered).forEach(function (name) {
      var option = document.createElement("option");
      option.value = name;
      list.appendChild(option);
    });
    form.addEventListener("submit", function () {
      var typed = Array.prototype.map.call(form.querySelectorAll("input[list=known-players]"),
        function (input) { return input.value.trim(); }).filter(Boolean);
      sessionStorage.setItem(STARTING, JSON.stringify(typed));
    });
  });
})();

// Share (templates/web/_share.html): the text the page carries, made in the reader's language
// (with a table's read-only summary's link, made whole here), goes to the phone's share sheet (the Web Share API), or, where there is none, to the
// clipboard, and the page says so; where neither is allowed, the text is shown to copy by hand.
// The button shows only with this script, also in a part of the page fetched again. Where the
// page asks for it (the evening's recap: data-image, the file's name), the text is drawn as a
// picture too, ready before the tap (a share sheet opens only at a tap), and shared with the
// text where the phone can share files.
(function () {
  "use strict";
  var picture = null;
  function reveal() {
    document.querySelectorAll("#share-button[hidden]").forEach(function (button) { button.hidden = false; });
  }
  // The lines of ``text`` that fit ``width`` as ``ctx`` writes them: words where there are
  // spaces, else characters (Chinese has no spaces).
  function wrapped(ctx, text, width) {
    var lines = [];
    text.split("\n").forEach(function (paragraph) {
      var line = "";
      paragraph.split(/(\s+)/).forEach(function (word) {
        if (ctx.measureText(line + word).width <= width) { line += word; return; }
        if (line.trim()) lines.push(line.trim());
        line = "";
        Array.from(word.trim()).forEach(function (char) {
          if (ctx.measureText(line + char).width > width) { lines.push(line); line = ""; }
          line += char;
        });
      });
      lines.push(line.trim());
    });
    return lines;
  }
  function draw() {
    var button = document.querySelector("#share-button[data-image]");
    var text = document.getElementById("share-text");
    if (!button || !text || !navigator.canShare || !window.File) return;
    var canvas = document.createElement("canvas"), ctx = canvas.getContext("2d");
    var WIDTH = 720, PAD = 32, SIZE = 26, LINE = 40, FONT = SIZE + "px sans-serif";
    ctx.font = FONT;
    var lines = wrapped(ctx, text.value, WIDTH - 2 * PAD);
    canvas.width = WIDTH;
    canvas.height = 2 * PAD + lines.length * LINE;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = "#111";
    ctx.textBaseline = "top";
    lines.forEach(function (line, i) {
      ctx.font = (i === 0 ? "bold " : "") + FONT; // the group's name
      ctx.fillText(line, PAD, PAD + i * LINE);
    });
    canvas.toBlob(function (blob) {
      var file = blob && new File([blob], button.dataset.image, { type: "image/png" });
      if (file && navigator.canShare({ files: [file] })) picture = file;
    }, "image/png");
  }
  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("DOMContentLoaded", draw);
  document.addEventListener("htmx:afterSettle", reveal);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#share-button");
    if (!button) return;
    var text = document.getElementById("share-text");
    var said = document.getElementById("share-said");
    // A table's read-only summary, whole: its live part, where the text is, has no host.
    if (button.dataset.link && !text.dataset.linked) {
      text.value += "\n" + new URL(button.dataset.link, location.href).href;
      text.dataset.linked = "1";
    }
    function byHand() {
      said.textContent = button.dataset.select;
      text.hidden = false;
      text.focus();
      text.select();
    }
    if (navigator.share) {
      var shared = picture ? { text: text.value, files: [picture] } : { text: text.value };
      navigator.share(shared).catch(function () { /* closed without sharing */ });
      return;
    }
    if (!navigator.clipboard) { byHand(); return; }
    navigator.clipboard.writeText(text.value).then(function () {
      said.textContent = button.dataset.copied;
    }, byHand);
  });
})();

// A button that prints the page (an inline onclick would break the Content-Security-Policy).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("button[data-print]")) window.print();
  });
})();

// The summary's chart: a tap, or a finger sliding along it, shows everyone's total after the
// nearest hand, beside each name in the key, with a cursor and a marker on each line there; the
// arrow keys step through the hands. The totals are read from the chart's own table
// (#chart-table), so the two always agree. Without this script, each hand's band in the chart
// has them as its title, and the table is there to open.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var chart = document.querySelector("svg.chart[data-step]");
    var table = document.getElementById("chart-table");
    if (!chart || !table) return;
    var rows = table.tBodies[0].rows;
    var left = +chart.dataset.left, step = +chart.dataset.step;
    var lines = chart.querySelectorAll("polyline");
    var dots = chart.querySelectorAll(".dot");
    var cursor = chart.querySelector(".cursor");
    var heading = document.getElementById("chart-hand");
    var values = document.querySelectorAll("#chart-legend .value");
    var shown = 0;

    // Hand k is the k-th row of the table and point k of each line (point 0 is the start).
    function show(k) {
      k = Math.max(1, Math.min(rows.length, k));
      if (k === shown) return;
      shown = k;
      var cells = rows[k - 1].cells;
      lines.forEach(function (line, i) {
        var point = line.points.getItem(k);
        dots[i].setAttribute("transform", "translate(" + point.x + " " + point.y + ") scale(1.5) translate(-5 -5)");
        dots[i].removeAttribute("visibility");
        if (values[i]) values[i].textContent = cells[i + 1].textContent;
      });
      var x = (left + k * step).toFixed(1);
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
      cursor.removeAttribute("visibility");
      heading.textContent = heading.dataset.heading.replace("{n}", cells[0].textContent);
    }
    function handAt(event) {
      var point = new DOMPoint(event.clientX, event.clientY).matrixTransform(chart.getScreenCTM().inverse());
      return Math.round((point.x - left) / step);
    }
    chart.addEventListener("pointerdown", function (event) { show(handAt(event)); });
    chart.addEventListener("pointermove", function (event) { if (event.buttons) show(handAt(event)); });
    chart.setAttribute("tabindex", "0");
    chart.addEventListener("keydown", function (event) {
      var to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 1, End: rows.length }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      show(to);
    });
    document.getElementById("chart-hint").classList.remove("hidden");
  });
})();

// A clock time typed for when a table ends ("Until 22:30") is this phone's clock: the server is
// told which zone that is (without this script it reads the time on the server's clock).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    document.querySelectorAll("input[data-time-zone]").forEach(function (input) {
      if (!input.value) input.value = zone;
    });
  });
})();

// When a table began, a payment's day, a change in a table's history, in the reader's region and
// on their clock: the server writes them in the page's language on its own clock (Django's
// formats) inside <time datetime>; the browser knows the rest. An English page on an en-GB
// phone reads 28/11/2026, 20:10; on an en-US phone 11/28/2026, 08:10 PM.
(function () {
  "use strict";
  function locale() {
    var page = (document.documentElement.lang || "en").toLowerCase();
    var browser = navigator.language || page;
    // The browser's region where it speaks the page's language; else the page's language
    // alone, so a Chinese or Korean page shows no English weekday.
    return browser.toLowerCase().split("-")[0] === page.split("-")[0] ? browser : page;
  }

  // A moment as the reader's language and region write it; on a page not in English, on a
  // 24-hour clock (no "PM"). A day alone ("2026-11-28") is that day on this phone's calendar.
  function written(iso, options) {
    var day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || "");
    var moment = day ? new Date(+day[1], +day[2] - 1, +day[3]) : new Date(iso);
    if (isNaN(moment.getTime())) return "";
    var loc = locale();
    if (options.hour && loc.slice(0, 2).toLowerCase() !== "en") options.hourCycle = "h23";
    try { return new Intl.DateTimeFormat(loc, options).format(moment); } catch (e) { return ""; }
  }
  var DAY = { year: "numeric", month: "2-digit", day: "2-digit" };
  var FORMATS = {
    when: function () { return { weekday: "short", year: "numeric", month: "2-digit", day: "2-digit",
                                 hour: "2-digit", minute: "2-digit" }; },
    date: function () { return Object.assign({}, DAY); },  // a payment's day
    at: function () {  // a change in a table's history, to the second
      return Object.assign({ hour: "2-digit", minute: "2-digit", second: "2-digit" }, DAY);
    }
  };

  function when(iso) { return written(iso, FORMATS.when()); }
  window.ledgerWhen = when;

  // A page the service worker showed from its copy, with no connection, says when that copy
  // was fetched (<html data-kept-at>, templates/web/sw.js), on the phone's clock as its
  // language and region write a time ("as of 21:14"; the date too if not today).
  function keptAt() {
    var notice = document.getElementById("kept-at");
    var at = new Date(document.documentElement.dataset.keptAt || "");
    if (!notice || isNaN(at.getTime())) return;
    var options = { hour: "2-digit", minute: "2-digit" };
    if (at.toDateString() !== new Date().toDateString()) Object.assign(options, DAY);
    var text = written(at.toISOString(), options) || at.toLocaleString();
    notice.textContent = notice.dataset.asOf.replace("{time}", function () { return text; });
    notice.classList.remove("hidden");
  }
  document.addEventListener("DOMContentLoaded", keptAt);

  // <time data-when> (when a table began), <time data-date> (a payment's day, a period's),
  // <time data-at> (a change in a table's history).
  function rewrite() {
    Object.keys(FORMATS).forEach(function (kind) {
      document.querySelectorAll("time[data-" + kind + "]").forEach(function (time) {
        var text = written(time.getAttribute("datetime"), FORMATS[kind]());
        if (text) time.textContent = text;
      });
    });
  }
  document.addEventListener("DOMContentLoaded", rewrite);
  // A group's latest tables come again, as the server writes them, when the group moves on.
  document.addEventListener("htmx:afterSettle", rewrite);
})();

// A way back: each table page this phone opens is remembered here, on the phone (its link,
// game, players, when it began and how it stands, and the organiser link where this phone is the organiser), and the home page
// lists them, so a lost link is not a lost table. Nothing of it is sent to the server.
(function () {
  "use strict";
  var KEY = "ledger-tables", MOST = 50;

  function read() { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } }
  function write(tables) { try { localStorage.setItem(KEY, JSON.stringify(tables.slice(0, MOST))); } catch (e) { /* full or off */ } }
  function others(tables, url) { return tables.filter(function (t) { return t.url !== url; }); }

  // A table its organiser removed is forgotten here too: the answer to the removal leads to
  // the home page (or the group's) with "#forgotten=" and the table's address.
  var FORGOTTEN = "#forgotten=";
  document.addEventListener("DOMContentLoaded", function () {
    if (location.hash.indexOf(FORGOTTEN) !== 0) return;
    write(others(read(), decodeURIComponent(location.hash.slice(FORGOTTEN.length))));
    history.replaceState(null, "", location.pathname + location.search);
  });

  function remember(here) {
    var known = read().filter(function (t) { return t.url === here.dataset.url; })[0] || {};
    write([{
      url: here.dataset.url,
      title: here.dataset.title,
      players: here.dataset.players || known.players || "",  // a group's, from its page
      created: here.dataset.created || "",  // a table's: when it began
      outcome: here.dataset.outcome || "",  // how it stands, as the table's page last said
      // A phone that once held the organiser's link keeps it.
      organiser: here.dataset.organiser || known.organiser || "",
    }].concat(others(read(), here.dataset.url)));
  }

  function list(section) {
    var ul = document.getElementById("your-tables-list");
    var tables = read();
    ul.textContent = "";
    tables.forEach(function (table) {
      var li = document.createElement("li");
      var link = document.createElement("a");
      link.href = table.url;
      var began = table.created && window.ledgerWhen ? window.ledgerWhen(table.created) : "";
      var about = table.outcome || table.players;
      link.textContent = (began ? began + " · " : "") + table.title + (about ? " — " + about : "");
      li.appendChild(link);
      if (table.organiser) {
        var rights = document.createElement("a");
        rights.href = table.organiser;
        rights.className = "organiser-link";
        rights.textContent = section.dataset.organiser;
        li.appendChild(document.createTextNode(" · "));
        li.appendChild(rights);
      }
      var forget = document.createElement("button");
      forget.type = "button";
      forget.className = "secondary forget";
      forget.textContent = section.dataset.forget;
      forget.setAttribute("aria-label", section.dataset.forgetLabel + ": " + link.textContent);
      forget.addEventListener("click", function () {
        write(others(read(), table.url));
        list(section);
        section.querySelector("h2").focus();
      });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(forget);
      ul.appendChild(li);
    });
    section.hidden = tables.length === 0;
  }

  // How the table stands moves with its live part (a hand saved here or on another phone):
  // the home page lists it as it was last seen, not as it was when the page opened.
  document.addEventListener("htmx:afterSettle", function () {
    var here = document.getElementById("way-back");
    var live = document.getElementById("live");
    if (!here || !live || live.dataset.outcome === undefined) return;
    if (here.dataset.outcome === live.dataset.outcome) return;
    here.dataset.outcome = live.dataset.outcome;
    remember(here);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var here = document.getElementById("way-back");
    // A group's table: its group too, below the table (this phone belongs to the group now).
    var group = document.getElementById("way-back-group");
    if (group) remember(group);
    if (here) remember(here);
    var section = document.getElementById("your-tables");
    if (section) {
      section.querySelector("h2").tabIndex = -1;
      list(section);
    }
  });
})();

// A group's new table: the line of what it plays for follows the game chosen.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var chosen = event.target;
    if (!chosen.matches || !chosen.matches("#group-table-form input[name=game]")) return;
    document.querySelectorAll("#new-table-plays-for [data-plays-for]").forEach(function (line) {
      line.hidden = line.dataset.playsFor !== chosen.value;
    });
  });
})();

// A correction or void of a hand (#told, in a table's live part and a group's balances) is
// told once on every phone: this phone keeps the ids it was told, and those it made itself
// (#changed, the answer to its own correction).
(function () {
  "use strict";
  var KEY = "ledger-told", MOST = 100;

  function read() { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } }
  function keep(told) { try { localStorage.setItem(KEY, JSON.stringify(told.slice(-MOST))); } catch (e) { /* full or off */ } }

  function tell() {
    var told = read();
    var own = document.getElementById("changed");
    if (own && own.dataset.change && told.indexOf(own.dataset.change) < 0) told.push(own.dataset.change);
    var notice = document.getElementById("told");
    if (notice && notice.classList.contains("hidden") && told.indexOf(notice.dataset.change) < 0) {
      notice.classList.remove("hidden");
      told.push(notice.dataset.change);
    }
    keep(told);
  }
  document.addEventListener("DOMContentLoaded", tell);
  document.addEventListener("htmx:afterSettle", tell);
})();
