/* The table as a Telegram Mini App. Telegram opens this page with its launch parameters
   in the URL fragment (#tgWebAppData=...&tgWebAppThemeParams=...); the page reads them
   itself (Telegram's own script is not needed, nor reachable offline) and sends the signed
   launch data with every request. It decides nothing about the game: it draws the state the
   bot sends (one seat's view, or the public table) and sends the taps back. */
(function () {
  "use strict";

  var hash = new URLSearchParams(location.hash.slice(1));
  var query = new URLSearchParams(location.search);
  var initData = hash.get("tgWebAppData") || "";
  var signed = new URLSearchParams(initData);
  var table = query.get("tgWebAppStartParam") || signed.get("start_param") || query.get("table") || "";
  var state = null;
  var words = {};
  var covering = false;
  var deadline = null;
  var streamAbort = null;
  var retry = 500;
  var previous = null; /* the ended match a Revanche was opened from (BackButton returns) */
  var left = {}; /* ended matches the person came back to: their Revanche is not followed */
  var mainAction = null; /* what Telegram's MainButton does now */
  var mainShown = "";
  var backShown = false;
  var hidden = false;
  var $ = function (id) { return document.getElementById(id); };

  /* --------------------------------------------------------- Telegram */

  function postEvent(type, data) {
    var body = JSON.stringify({ eventType: type, eventData: data || {} });
    try {
      if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, JSON.stringify(data || {}));
      else if (window.external && window.external.notify) window.external.notify(body);
      else if (window.parent !== window) window.parent.postMessage(body, "*");
    } catch (e) { /* outside Telegram: nothing to tell */ }
  }

  function applyTheme(params) {
    var root = document.documentElement;
    var names = { bg_color: "bg", text_color: "text", hint_color: "hint", button_color: "button",
      button_text_color: "button-text", secondary_bg_color: "secondary-bg" };
    Object.keys(names).forEach(function (k) {
      if (params[k]) root.style.setProperty("--tg-" + names[k], params[k]);
    });
    var bg = params.bg_color || "";
    if (/^#[0-9a-f]{6}$/i.test(bg)) {
      var n = parseInt(bg.slice(1), 16);
      var light = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
      root.classList.toggle("dark", light < 128);
    }
  }

  var theme = {};
  try { theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); applyTheme(theme); } catch (e) { /* no theme */ }

  /* events from Telegram: the phone apps call window.Telegram.WebView.receiveEvent, the
     web versions post a message to the frame; outside Telegram neither ever comes */
  function receive(type, data) {
    data = data || {};
    if (type === "theme_changed") { theme = data.theme_params || {}; applyTheme(theme); mainShown = ""; drawMain(); }
    else if (type === "main_button_pressed") { if (mainAction) mainAction(); }
    else if (type === "back_button_pressed") back();
    else if (type === "visibility_changed") visibility(data.is_visible === false);
  }
  window.Telegram = window.Telegram || {};
  window.Telegram.WebView = window.Telegram.WebView || {};
  window.Telegram.WebView.receiveEvent = receive;
  window.addEventListener("message", function (event) {
    try {
      var msg = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
      if (msg && msg.eventType) receive(msg.eventType, msg.eventData);
    } catch (e) { /* not for us */ }
  });

  /* Telegram's MainButton carries the page's main step when there is one (Começar or
     Entrar in a lobby, Revanche at the end), its BackButton leads back from a Revanche to
     the match it came from, or out of covering a card; both are also drawn in the page */
  function setMain(label, action) {
    mainAction = label ? action : null;
    var key = label || "";
    if (key === mainShown) return;
    mainShown = key;
    drawMain();
  }

  function drawMain() {
    var label = mainShown;
    postEvent("web_app_setup_main_button", label ? {
      is_visible: true, is_active: true, is_progress_visible: false, text: label,
      color: theme.button_color || "#2e7d32", text_color: theme.button_text_color || "#ffffff"
    } : { is_visible: false });
  }

  function setBack(visible) {
    if (visible === backShown) return;
    backShown = visible;
    postEvent("web_app_setup_back_button", { is_visible: visible });
  }

  function back() {
    if (covering) { covering = false; render(); return; }
    if (previous) { left[previous] = true; var to = previous; previous = null; open(to); }
  }

  /* ------------------------------------------------------------ drawing */

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  /* the state's sentences come with their kind and values; the page shows their words,
     one a line (the bot words them: the page never builds a sentence of its own) */
  function said(sentences) {
    return (sentences || []).map(function (s) { return s.text; }).join("\n");
  }

  var deck = window.TrucoDeck;

  function cardName(c) {
    return (state.deck === "espanhol" ? c.esp_name : c.name) + (c.manilha ? ", " + (state.points ? words.brava : words.manilha) : "");
  }

  function card(c, extra) {
    if (!c) return '<span class="carta carta--verso' + (extra ? " " + extra : "") + '" role="img" aria-label="' + esc(words.covered || "") + '"></span>';
    var cls = "carta carta--" + c.code[1].toLowerCase() + (c.manilha ? " carta--manilha" : "") + (extra ? " " + extra : "");
    return '<span class="' + cls + '" data-card="' + esc(c.code) + '" role="img" aria-label="' + esc(cardName(c)) + '"' +
      ">" + deck.face(c, state.deck) + "</span>";
  }

  function backs(n) {
    var out = "";
    for (var i = 0; i < n; i++) out += '<span class="carta carta--verso" aria-hidden="true"></span>';
    return '<span class="backs">' + out + "</span>";
  }

  /* where each seat sits, seen from the person's own chair (south) */
  function place(seat) {
    var me = state.seat === null ? 0 : state.seat;
    var d = (seat - me + state.players) % state.players;
    if (state.players === 2) return d === 0 ? "s" : "n";
    return ["s", "e", "n", "w"][d];
  }

  /* a card played comes in from its seat's side of the felt */
  var seenPlays = null; /* plays already drawn on this page: only new ones move */

  function teamName(team) {
    return state.seats.filter(function (s) { return s.team === team; }).map(function (s) { return s.name; }).join(" & ");
  }

  function seatsOnFelt(played) {
    var st = state;
    var felt = "";
    var waiting = st.lobby ? st.lobby.waiting : [];
    st.seats.forEach(function (s) {
      /* a Revanche's chair whose person has not confirmed yet says so */
      var late = played === null && waiting.indexOf(s.seat) >= 0;
      var cls = "seat seat--" + place(s.seat) + " seat--team" + s.team + (st.to_act && st.to_act.indexOf(s.seat) >= 0 ? " seat--turn" : "") +
        (s.free ? " seat--free" : "") + (s.robot ? " seat--robot" : "") + (s.you ? " seat--you" : "") + (late ? " seat--late" : "");
      var name = s.free ? words.free : s.name;
      felt += '<div class="' + cls + '" data-seat="' + s.seat + '"><span class="name">' + esc(name) +
        (s.you ? ' <span class="you">(' + esc(words.you) + ")</span>" : "") + "</span>" +
        (played === null ? (st.players === 4 ? '<span class="teamtag">' + esc(words.team.replace("{n}", s.team + 1)) + "</span>" : "") +
          (late ? '<span class="late">' + esc(words.to_confirm) + "</span>" : "") :
          (s.you ? "" : backs(st.cards_left[s.seat] || 0)) +
          (st.speech[s.seat] ? '<span class="said">' + esc(st.speech[s.seat].text) + "</span>" : "") +
          '<span class="played" data-seat="' + s.seat + '">' + (played[s.seat] || "") + "</span>") +
        "</div>";
    });
    return felt;
  }

  function drawLobby(st) {
    $("felt").classList.add("felt--lobby");
    $("felt").innerHTML = seatsOnFelt(null);
    $("lobby-text").textContent = said(st.lobby.sentences);
    var row = null;
    $("lobby-actions").innerHTML = st.lobby.actions.map(function (a) {
      var kind = /^(join|team)/.test(a.command) ? "seat" : /robot/.test(a.command) ? "robot" : "go";
      var gap = row !== null && row !== kind ? '<span class="row-break"></span>' : "";
      row = kind;
      return gap + '<button type="button" class="lobby lobby--' + esc(a.command) + '" data-command="' + esc(a.command) + '">' + esc(a.label) + "</button>";
    }).join("");
  }

  function drawEnded(st) {
    var el = $("ended");
    var text = st.status === "cancelled" ? words.cancelled : st.status === "over" ? words.over : "";
    el.hidden = !text;
    el.textContent = text;
    el.className = text ? "ended ended--" + st.status : "";
  }

  /* gaudério's points game (envido and flor): a widget of the table, not a line lost in a
     log; every row is a sentence of the bot's (kind, values, words), the page lays it out:
     the big number of one's own or the winning points, what quero and não quero pay */
  function drawPoints(st) {
    var el = $("tantos");
    var p = st.points;
    el.hidden = !p;
    if (!p) { el.innerHTML = ""; return; }
    function big(x) { return x === undefined || x === null ? "" : '<span class="tantos__n">' + esc(x) + "</span>"; }
    function cards(list) {
      return list && list.length ? '<span class="tantos__cartas">' + list.map(function (c) { return card(c); }).join("") + "</span>" : "";
    }
    function row(r) {
      var v = r.values || {};
      var text = '<span class="tantos__text">' + esc(r.text) +
        (r.detail ? '<span class="tantos__detail">' + esc(r.detail) + "</span>" : "") +
        (r.calls && r.calls.length > 1 ? '<span class="tantos__calls">' + r.calls.map(esc).join(" → ") + "</span>" : "") + "</span>";
      var worths = r.kind !== "envido_pending" ? "" : '<span class="tantos__worths">' +
        '<span class="tantos__worth" data-answer="quero">' + big(v.quero) + esc(words.if_quero) + "</span>" +
        '<span class="tantos__worth" data-answer="nao_quero">' + big(v.nao_quero) + esc(words.if_nao_quero) + "</span></span>";
      return '<li class="tantos__row tantos__row--' + esc(r.kind) + '" data-kind="' + esc(r.kind) + '">' +
        (r.kind === "envido_own" || r.kind === "envido_won" ? big(v.points) : "") + text + worths + cards(r.cards) + "</li>";
    }
    el.setAttribute("aria-label", words.points_game);
    el.innerHTML = '<h2 class="tantos__title">' + esc(words.points_game) + ' <span class="tantos__target">' + esc(p.target.text) + "</span></h2>" +
      (p.rows.length ? '<ul class="tantos__rows">' + p.rows.map(row).join("") + "</ul>" : "") +
      (p.last ? '<p class="tantos__last">' + esc(p.last.text) + '</p><ul class="tantos__rows tantos__rows--last">' + p.proved.map(row).join("") + "</ul>" : "");
  }

  function render() {
    var st = state;
    words = st.words;
    document.documentElement.lang = words.lang;
    $("felt").setAttribute("aria-label", words.table);
    document.documentElement.dataset.baralho = st.deck;
    document.body.dataset.version = st.version;
    document.body.dataset.status = st.status;
    $("lobby").hidden = !st.lobby;
    $("result").hidden = true;
    $("standin").hidden = true;
    drawEnded(st);
    if (!("score" in st)) {
      ["score", "worth", "info", "partner", "seen", "hand", "actions", "signals"].forEach(function (id) { $(id).innerHTML = ""; });
      $("kind").hidden = $("closing").hidden = $("partner").hidden = $("seen").hidden = $("signals").hidden = true;
      drawPoints({ points: null });
      $("status").textContent = st.status === "cancelled" ? "" : words.lobby;
      var main = null;
      if (st.lobby) {
        drawLobby(st);
        main = st.lobby.actions.filter(function (a) { return a.command === "start"; })[0] ||
          st.lobby.actions.filter(function (a) { return a.command === "join"; })[0] || null;
      } else {
        $("felt").classList.add("felt--lobby");
        $("felt").innerHTML = seatsOnFelt(null);
      }
      setMain(main && main.label, main && function () { lobbyAct(main.command); });
      setBack(!!previous || covering);
      return;
    }
    $("felt").classList.remove("felt--lobby");
    var myTeam = st.seat === null ? -1 : st.seat & 1;
    /* the score in the teams' order, as every message of the match says it */
    $("score").innerHTML = [0, 1].map(function (team) {
      return '<span class="team' + (team === myTeam ? " team--mine" : "") + '" data-team="' + team + '">' + esc(teamName(team)) + "</span>";
    }).join('<span class="points">' + st.score[0] + " × " + st.score[1] + "</span>");
    var worth = "worth" in st ? st.worth : st.stake;
    $("worth").textContent = words.worth + " " + (st.pending_value ? worth + "→" + st.pending_value : worth);
    $("kind").hidden = !st.banner;
    $("kind").textContent = st.banner ? st.banner.text : "";

    /* an ended match says so once, in its banner (#ended): no turn is anyone's any more */
    var turn = "";
    if (st.status === "over" || st.status === "cancelled") turn = "";
    else if (st.seat !== null && st.to_act.indexOf(st.seat) >= 0) turn = words.your_turn;
    else if (st.to_act.length) {
      var names = st.to_act.map(function (s) { return st.seats[s].name; });
      /* a team answering or deciding: either partner may */
      turn = names.length === 2 ? words.turn_of_either.replace("{a}", names[0]).replace("{b}", names[1])
        : words.turn_of.replace("{name}", names.join(", "));
    }
    if (st.seat === null) turn = (words.watching + " " + turn).trim();
    $("status").innerHTML = esc(turn) + '<span class="clock" id="clock"></span>';
    deadline = st.deadline_in === null || st.status !== "playing" ? null : performance.now() + st.deadline_in * 1000;
    tick();

    /* the felt: each seat's name, cards left, what they said, what they played */
    /* an empty table shows the round just closed, so the last cards played stay visible */
    var played = {};
    var round = st.table.length || !st.past.length ? st.past.length : st.past.length - 1;
    var onFelt = st.table.length || !st.past.length ? st.table : st.past[st.past.length - 1];
    var shown = {};
    onFelt.forEach(function (p) {
      var key = st.game + ":" + st.hand_number + ":" + round + ":" + p.seat;
      shown[key] = true;
      var moving = seenPlays !== null && !seenPlays[key];
      /* the page's CSP allows no style attribute: the side it comes from is a class */
      var move = moving ? "carta--chega carta--de-" + place(p.seat) : "";
      played[p.seat] = p.covered && !p.card ? card(null, move) :
        card(p.card, (p.covered ? "carta--coberta carta--minha " : "") + move);
    });
    seenPlays = shown;
    $("felt").innerHTML = seatsOnFelt(played);

    var rounds = st.rounds.map(function (r) {
      var who = r === null ? "tie" : r === myTeam ? "us" : "them";
      return '<span class="round round--' + who + '" data-round="' + who + '"></span>';
    }).join("");
    $("info").innerHTML = (st.vira ? '<span class="info-vira">' + esc(words.vira) + " " + card(st.vira) + "</span>" : "") +
      '<span class="info-manilhas">' + esc(st.points ? words.bravas : words.manilhas) + " " + st.manilhas.map(function (c) { return card(c); }).join("") + "</span>" +
      '<span id="rounds" data-rounds="' + st.rounds.map(function (r) { return r === null ? "x" : r; }).join("") + '">' + esc(words.rounds) + " " + rounds + "</span>";

    drawPoints(st);

    $("partner").hidden = !st.partner_hand;
    $("partner").innerHTML = st.partner_hand ? esc(words.partner_cards) + " " + st.partner_hand.map(function (c) { return card(c); }).join("") : "";
    /* the signals as sentences: what kind, about whom, and the words */
    var notes = (st.sent_signals || []).map(function (s) { return '<li class="sig-sent">' + esc(s.text) + "</li>"; })
      .concat(st.seen_signals.map(function (s) {
        return '<li class="' + (s.kind === "signal_caught" ? "sig-caught" : "sig-partner") + '" data-seat="' + s.values.seat + '">' + esc(s.text) + "</li>";
      }));
    $("seen").hidden = !notes.length;
    $("seen").innerHTML = notes.length ? "<ul>" + notes.join("") + "</ul>" : "";

    /* the person's hand: cards to tap (their legal plays), blind slots in the iron hand */
    var legal = {};
    st.legal.forEach(function (a) { legal[a.action] = a; });
    var canCover = st.legal.some(function (a) { return a.act === "cover"; });
    if (!canCover) covering = false;
    var hand = "";
    st.hand.forEach(function (c) {
      var action = (covering ? "cover " : "play ") + c.code;
      var ok = !!legal[action];
      hand += '<button type="button" class="carta carta--' + c.code[1].toLowerCase() + (c.manilha ? " carta--manilha" : "") +
        '" data-card="' + esc(c.code) + '" data-action="' + esc(action) + '" aria-label="' + esc(cardName(c)) + '"' +
        (ok ? "" : " disabled") + ">" + deck.face(c, st.deck) + "</button>";
    });
    st.blind_slots.forEach(function (slot) {
      var action = "blind " + slot;
      hand += '<button type="button" class="carta carta--verso" data-slot="' + slot + '" data-action="' + action + '" aria-label="' +
        esc(words.blind.replace("{n}", slot + 1)) + '"' + (legal[action] ? "" : " disabled") + '><span class="slot">' + (slot + 1) + "</span></button>";
    });
    $("hand").innerHTML = hand;
    $("hand").setAttribute("aria-label", words.your_cards);

    var acts = "";
    if (canCover) acts += '<button type="button" class="cover" aria-pressed="' + covering + '">' + esc(words.cover) + "</button>";
    st.legal.forEach(function (a) {
      if (a.act === "play" || a.act === "cover" || a.act === "blind") return;
      acts += '<button type="button" class="act act--' + esc(a.act) + '" data-act="' + a.act + '" data-action="' + esc(a.action) + '">' + esc(a.label) + "</button>";
    });
    $("actions").innerHTML = acts;
    $("signals").hidden = !st.signals.length;
    $("signals").innerHTML = st.signals.length ? '<span class="sig-title">' + esc(words.signals) + "</span> " + st.signals.map(function (s) {
      return '<button type="button" class="sig" data-action="' + esc(s.action) + '">' + esc(s.label) + "</button>";
    }).join("") : "";
    $("closing").hidden = !st.closing;
    $("closing").textContent = st.closing ? said(st.closing.sentences) : "";

    /* the end: the result, and the Revanche (a Revanche someone asked for opens here) */
    $("result").hidden = !st.result;
    $("result-text").textContent = st.result ? st.result.text : "";
    var offer = st.status === "over" && st.can_rematch;
    $("result-actions").innerHTML = offer ? '<button type="button" class="rematch">' + esc(words.rematch) + "</button>" : "";
    /* a robot plays this seat for the person: 🙋 Voltei, here and on Telegram's MainButton */
    $("standin").hidden = !st.robot_plays;
    $("standin-text").textContent = st.robot_plays ? words.stand_in : "";
    $("back").textContent = words.back;
    if (st.robot_plays) setMain(words.back, comeBack);
    else setMain(offer ? words.rematch : null, rematch);
    setBack(!!previous || covering);
    if (st.status === "over" && st.rematch && !left[table]) { previous = table; open(st.rematch); }
  }

  function tick() {
    var el = $("clock");
    if (!el) return;
    if (deadline === null) { el.textContent = ""; return; }
    var left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    el.textContent = words.countdown.replace("{n}", String(left));
  }
  setInterval(tick, 250);

  function toast(text) {
    var el = $("toast");
    el.textContent = text;
    el.hidden = !text;
  }

  /* ------------------------------------------------------------ talking */

  function headers() {
    return { Authorization: "tma " + initData, "Content-Type": "application/json" };
  }

  function fail(status, body) {
    if (status === 401 || status === 404) {
      stop();
      $("conn").hidden = false;
      $("conn").textContent = (body && body.error) || "401";
      document.body.dataset.refused = String(status);
      return true;
    }
    return false;
  }

  function send(action) {
    if (!state) return;
    toast("");
    postEvent("web_app_trigger_haptic_feedback", { type: "impact", impact_style: "light" });
    fetch("api/move", { method: "POST", headers: headers(),
      body: JSON.stringify({ table: table, version: state.version, action: action }) })
      .then(function (r) { return r.json().then(function (b) { return [r.status, b]; }); })
      .then(function (res) {
        if (!fail(res[0], res[1]) && res[0] !== 200) toast(res[1].error || "");
      }, function () { toast(words.offline); });
  }

  function post(path, body) {
    toast("");
    return fetch(path, { method: "POST", headers: headers(), body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (b) { return [r.status, b]; }); })
      .then(function (res) {
        if (!fail(res[0], res[1]) && res[0] !== 200) toast(res[1].error || "");
        return res[0] === 200 ? res[1] : null;
      }, function () { toast(words.offline); return null; });
  }

  function lobbyAct(command) {
    post("api/lobby", { table: table, command: command, version: state ? state.version : undefined });
  }

  function comeBack() {
    post("api/back", { table: table });
  }

  function rematch() {
    var from = table;
    post("api/rematch", { table: table }).then(function (b) {
      if (b && b.table && table === from) { previous = from; open(b.table); }
    });
  }

  /* another table in the same page: the Revanche (or back to the match it came from) */
  function open(ref) {
    if (ref === table) return;
    stop();
    table = ref;
    state = null;
    seenPlays = null;
    covering = false;
    connect();
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest("button");
    if (!el || el.disabled) return;
    if (el.classList.contains("cover")) { covering = !covering; render(); return; }
    if (el.classList.contains("rematch")) { rematch(); return; }
    if (el.classList.contains("back")) { comeBack(); return; }
    if (el.dataset.command) { lobbyAct(el.dataset.command); return; }
    if (el.dataset.action) { covering = false; send(el.dataset.action); }
  });

  function show(next) {
    state = next;
    render();
  }

  function stop() {
    if (streamAbort) streamAbort.abort();
    streamAbort = null;
  }

  /* the live stream: Server-Sent Events read with fetch (so the launch data goes in a
     header); every event is the whole state, so a reconnection catches up by itself */
  function connect() {
    var ctl = new AbortController();
    streamAbort = ctl;
    fetch("api/events?table=" + encodeURIComponent(table), { headers: headers(), signal: ctl.signal })
      .then(function (r) {
        if (!r.ok) {
          return r.json().then(function (b) { if (!fail(r.status, b)) throw new Error(String(r.status)); });
        }
        $("conn").hidden = true;
        document.body.dataset.live = "on";
        retry = 500;
        var reader = r.body.getReader();
        var decoder = new TextDecoder();
        var buffer = "";
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.done) throw new Error("closed");
            buffer += decoder.decode(chunk.value, { stream: true });
            var at;
            while ((at = buffer.indexOf("\n\n")) >= 0) {
              var frame = buffer.slice(0, at);
              buffer = buffer.slice(at + 2);
              var data = frame.split("\n").filter(function (l) { return l.indexOf("data: ") === 0; })
                .map(function (l) { return l.slice(6); }).join("\n");
              if (data) show(JSON.parse(data));
            }
            return pump();
          });
        }
        return pump();
      })
      .catch(function () {
        if (streamAbort !== ctl) return;
        document.body.dataset.live = "off";
        $("conn").hidden = false;
        $("conn").textContent = words.offline || "…";
        setTimeout(function () { if (streamAbort === ctl) connect(); }, retry);
        retry = Math.min(retry * 2, 5000);
      });
  }

  /* a hidden app does not count as open: it tells the bot at once (the hand message and
     the turn's ping come back as if it were closed), lets go of its connection, and
     catches up when it comes back */
  function visibility(isHidden) {
    if (isHidden === hidden) return;
    hidden = isHidden;
    document.body.dataset.hidden = String(isHidden);
    if (isHidden) {
      stop();
      try {
        fetch("api/presence", { method: "POST", headers: headers(), keepalive: true,
          body: JSON.stringify({ table: table, hidden: true }) }).catch(function () {});
      } catch (e) { /* leaving anyway */ }
    } else if (!streamAbort && document.body.dataset.refused === undefined) connect();
  }
  document.addEventListener("visibilitychange", function () {
    visibility(document.visibilityState === "hidden");
  });

  postEvent("web_app_ready");
  postEvent("web_app_expand");
  connect();
})();
