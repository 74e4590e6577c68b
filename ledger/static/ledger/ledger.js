// The tile picker and small helps for the hand form. The page works without this file.
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
    showSeats();
    refresh();
  }

  function setUpAll() { document.querySelectorAll("form[data-deck]").forEach(setUp); }
  document.addEventListener("DOMContentLoaded", setUpAll);
  document.addEventListener("htmx:afterSettle", setUpAll);

  // When another phone saves a hand, bring this phone's empty form up to the next hand.
  // A form with anything typed in is left alone: saving it is told the hand is taken.
  document.addEventListener("htmx:afterSettle", function () {
    var live = document.getElementById("live");
    var form = document.getElementById("record-form");
    if (!live || !form || !window.htmx) return;
    var number = form.querySelector("input[name=number]");
    if (!number || +live.dataset.nextNumber <= +number.value) return;
    var typed = Array.prototype.some.call(
      form.querySelectorAll("input[type=text]:not([name=device])"),
      function (input) { return input.value.trim() !== ""; });
    if (!typed) htmx.ajax("GET", live.dataset.formUrl, { target: "#hand-form", swap: "outerHTML" });
  });
})();

// A hand that could not be sent (no connection, server down) is kept on this phone and sent
// again when the connection is back, with the same idempotency key: it is stored once.
(function () {
  "use strict";
  var STORE = "ledger-unsent:" + location.pathname;
  var lastAction = "save";

  function load() { try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; } }
  function keep(queue) { localStorage.setItem(STORE, JSON.stringify(queue)); show(queue); }
  function show(queue) {
    var status = document.getElementById("unsent");
    if (!status) return;
    status.classList.toggle("hidden", !queue.length);
    status.textContent = queue.length ? status.dataset.waiting.replace("{n}", queue.length) : "";
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"]; } catch (e) { return ""; }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#record-form button[name=action]");
    if (button) lastAction = button.value;
  });

  function stash(event) {
    var form = event.detail.elt;
    if (!form || form.id !== "record-form" || lastAction !== "save") return;
    var data = new URLSearchParams(new FormData(form));
    data.set("action", "save");
    var queue = load();
    if (!queue.some(function (item) { return new URLSearchParams(item).get("key") === data.get("key"); })) {
      queue.push(data.toString());
    }
    keep(queue);
  }
  document.addEventListener("htmx:sendError", stash);
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr && event.detail.xhr.status >= 500) stash(event);
  });

  var sending = false;
  function flush() {
    var queue = load();
    show(queue);
    if (!queue.length || sending) return;
    sending = true;
    fetch(location.pathname, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf(), "Content-Type": "application/x-www-form-urlencoded" },
      body: queue[0]
    }).then(function (response) {
      if (!response.ok) throw new Error("not yet");
      return response.text();
    }).then(function (html) {
      keep(load().slice(1));
      var form = document.getElementById("record-form");
      var key = form && form.querySelector("input[name=key]");
      // Show the answer in place when the form holds this very hand, or nothing typed.
      var mine = key && key.value === new URLSearchParams(queue[0]).get("key");
      var typed = form && Array.prototype.some.call(
        form.querySelectorAll("input[type=text]:not([name=device])"),
        function (input) { return input.value.trim() !== ""; });
      var target = document.getElementById("hand-form");
      if (target && (mine || !typed) && window.htmx) {
        target.outerHTML = html;
        htmx.process(document.getElementById("hand-form"));
      }
      if (window.htmx) htmx.trigger(document.body, "ledger-changed");
      sending = false;
      flush();
    }).catch(function () { sending = false; });
  }
  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", flush);
  setInterval(flush, 5000);
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
