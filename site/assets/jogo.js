/* "Jogar agora": a whole match against the robots, drawn from what the engine says.
 *
 * The rules, the robots and the words live in Python (engine/browser.py), run by Pyodide in
 * a worker (jogar/motor.js); this file only draws the person's view and sends the buttons they
 * press. It does nothing on other pages: Pyodide is loaded only when the page has [data-jogo].
 * Material's instant navigation swaps pages, so the worker is kept between visits and the page
 * re-attaches on `document$`. The match is saved in localStorage after every move. */
(function () {
  "use strict";

  var SAVED = "truco-jogo-partida";
  var SETUP = "truco-jogo-mesa";
  var PACE = "truco-jogo-ritmo";
  var DEFAULT_SETUP = { variant: "paulista", players: 2, level: "facil", target: 12, covered_cards: true, ladder: null, timer: null, flor: true };
  var DECK = "truco-baralho"; /* truco.js: the deck style the person chose, if they did */
  var TIMERS = [null, 30, 60, 90];
  /* the robots' pause before each move, in ms (stored under PACE) */
  var PACES = [{ value: 1400, title: "Devagar" }, { value: 700, title: "Normal" }, { value: 250, title: "Rápido" }];
  var LEVEL_HELP = {
    facil: "joga a carta que dá, quase nunca blefa: bom para aprender",
    medio: "conta as cartas e pede truco quando tem jogo",
    dificil: "calcula as chances de cada lance e blefa na hora certa"
  };

  // ------------------------------------------------------------ storage

  var load = window.trucoSite.load;
  var save = window.trucoSite.save;

  var esc = window.trucoSite.esc;

  // ------------------------------------------------------------ the engine (one worker per tab)

  var engine = null;

  /* The worker the page's inline script started while the page loaded (site/_hooks/jogo.py,
   * EARLY_BOOT) is adopted with the messages it has sent so far; else a new one starts. */
  function Engine(config, base) {
    var self = this;
    var early = window.trucoMotor;
    var adopt = early && early.key === config.engine && early.worker && !early.adopted;
    window.trucoMotor = { adopted: true, key: config.engine };
    this.worker = adopt ? early.worker : new Worker(new URL("motor.js", base).href);
    this.started = adopt ? early.started : performance.now();
    this.next = 1;
    this.waiting = {};
    this.progress = null;
    var receive = function (msg) {
      if (msg.progress) {
        if (self.progress) self.progress(msg.progress);
        return;
      }
      var done = self.waiting[msg.id];
      delete self.waiting[msg.id];
      if (!done) return;
      if (msg.error) done.reject(new Error(msg.error));
      else done.resolve(msg);
    };
    this.worker.onmessage = function (event) { receive(event.data); };
    this.worker.onerror = function (event) {
      Object.keys(self.waiting).forEach(function (id) {
        self.waiting[id].reject(new Error(event.message || "erro no motor"));
      });
      self.waiting = {};
    };
    if (adopt) {
      this.next = 2; /* the inline script sent boot as message 1 */
      this.ready = new Promise(function (resolve, reject) { self.waiting[1] = { resolve: resolve, reject: reject }; });
      early.messages.forEach(receive);
      if (early.failed) this.worker.onerror({ message: early.failed });
    } else {
      this.ready = this.send("boot", { config: config, base: base });
    }
  }

  Engine.prototype.send = function (op, data) {
    var self = this;
    var id = this.next++;
    var msg = Object.assign({ id: id, op: op }, data || {});
    return new Promise(function (resolve, reject) {
      self.waiting[id] = { resolve: resolve, reject: reject };
      self.worker.postMessage(msg);
    });
  };

  // ------------------------------------------------------------ drawing

  function card(c, extra) {
    if (!c) return '<span class="carta carta--verso" role="img" aria-label="carta virada"><span></span></span>';
    var cls = "carta carta--" + c.code[1].toLowerCase() + (c.manilha ? " carta--manilha" : "") + (extra ? " " + extra : "");
    return '<span class="' + cls + '" data-card="' + esc(c.code) + '" role="img" aria-label="' + esc(c.name) +
      (c.manilha ? ", manilha" : "") + '" title="' + esc(c.name + " · " + c.esp_name) + '">' + faces(c) + "</span>";
  }

  function faces(c) {
    return '<span class="carta__trad">' + esc(c.trad) + '<span class="carta__naipe">' + esc(c.naipe) + "</span></span>" +
      '<span class="carta__esp">' + esc(c.esp) + '<span class="naipe-esp naipe-esp--' + esc(c.naipe_esp) + '"></span></span>';
  }

  function backs(n) {
    var out = "";
    for (var i = 0; i < n; i++) out += '<span class="carta carta--verso carta--pequena" aria-hidden="true"><span></span></span>';
    return '<span class="jogo__costas" role="img" aria-label="' + n + (n === 1 ? " carta" : " cartas") + '">' + out + "</span>";
  }

  /* Where each seat sits around the table, from the person's point of view. */
  function place(seat, players) {
    if (seat === 0) return "sul";
    if (players === 2) return "norte";
    return ["sul", "leste", "norte", "oeste"][seat];
  }

  function Game(el) {
    this.el = el;
    this.config = JSON.parse(el.getAttribute("data-jogo-config"));
    this.state = null;
    this.busy = false;
    this.error = "";
    this.timer = null;
    this.thinkMs = [];
    this.step = 0;
    el.addEventListener("click", this.onClick.bind(this));
    el.addEventListener("change", this.onChange.bind(this));
    el.setAttribute("data-jogo-fase", "mesa");
    this.box = document.createElement("div");
    this.box.className = "jogo__caixa";
    el.appendChild(this.box);
    /* what changed the situation (your turn, a call to answer, the hand's result), said once to
       screen readers: the table itself is drawn anew after every move */
    this.live = document.createElement("div");
    this.live.className = "sr-only";
    this.live.setAttribute("role", "status");
    this.live.setAttribute("data-jogo-aviso", "");
    el.appendChild(this.live);
    this.moved = false;
    this.setup = Object.assign({}, DEFAULT_SETUP, load(SETUP) || {});
    var saved = load(SAVED);
    if (saved && saved.snapshot) {
      this.boot().then(this.restore.bind(this, saved.snapshot));
    } else {
      this.renderSetup();
      this.boot(); /* the engine loads while the person chooses the table */
    }
  }

  Game.prototype.pace = function () {
    var stored = load(PACE);
    return typeof stored === "number" ? stored : 700;
  };

  Game.prototype.boot = function () {
    var self = this;
    var base = new URL(".", location.href).href;
    if (!engine || engine.key !== this.config.engine) {
      engine = new Engine(this.config, base);
      engine.key = this.config.engine;
    }
    this.renderLoading({ done: 0, total: 1, stage: "baixando" });
    engine.progress = function (p) { if (self.el.isConnected) self.renderLoading(p); };
    return engine.ready.then(function (msg) {
      engine.progress = null;
      var bar = self.el.querySelector(".jogo__carga");
      if (bar) bar.parentNode.removeChild(bar);
      self.el.setAttribute("data-jogo-pronto", "");
      self.el.setAttribute("data-jogo-carga-ms", String(Math.round(performance.now() - engine.started)));
      self.el.setAttribute("data-jogo-inicio-ms", String(Math.round(engine.started)));
      self.el.setAttribute("data-jogo-motor-ms", JSON.stringify(msg.timings));
      window.trucoSite.registerOffline();
      return msg;
    }, function (e) {
      self.renderFailure(e.message);
      throw e;
    });
  };

  Game.prototype.renderLoading = function (p) {
    if (this.el.getAttribute("data-jogo-fase") === "jogo") return;
    var pct = p.stage === "baixando" ? Math.min(95, Math.round(95 * p.done / Math.max(1, p.total))) : 98;
    var text = p.stage === "baixando" ? "Baixando o motor do jogo… " + pct + "%" : "Embaralhando…";
    var bar = this.el.querySelector(".jogo__carga");
    if (!bar) {
      var div = document.createElement("div");
      div.className = "jogo__carga";
      div.innerHTML = '<progress max="100" value="0" aria-label="Carregando o jogo"></progress><span></span>';
      /* below the form, by its button: above it, the form moved under the person's finger
         each time the bar came (the form drawn again) or went (the engine ready) */
      this.box.appendChild(div);
      bar = div;
    }
    bar.querySelector("progress").value = pct;
    bar.querySelector("span").textContent = text;
  };

  Game.prototype.renderFailure = function (message) {
    this.box.innerHTML = '<div class="jogo__erro" role="alert"><p>O jogo não carregou neste navegador.</p><p><small>' +
      esc(message) + '</small></p><button type="button" class="md-button" data-jogo-recarregar>Tentar de novo</button></div>';
  };

  // ------------------------------------------------------------ setup form

  Game.prototype.renderSetup = function () {
    var s = this.setup;
    var c = this.config.choices;
    tableDeck(null);
    this.el.setAttribute("data-jogo-fase", "mesa");
    var variant = c.variants.filter(function (v) { return v.name === s.variant; })[0] || c.variants[0];
    var radios = function (name, items, current) {
      return items.map(function (it) {
        return '<label class="jogo__opcao"><input type="radio" name="' + name + '" value="' + esc(it.value) + '"' +
          (String(it.value) === String(current) ? " checked" : "") + "> " + esc(it.title) +
          (it.help ? ' <small class="jogo__ajuda">(' + esc(it.help) + ")</small>" : "") + "</label>";
      }).join("");
    };
    var ladder = "";
    if (variant.ladders.length > 1) {
      ladder = '<fieldset><legend>Escada do truco</legend>' + radios("ladder", variant.ladders.map(function (l) {
        return { value: l.join("-"), title: l.join("-") };
      }), s.ladder ? s.ladder.join("-") : variant.ladders[0].join("-")) + "</fieldset>";
    }
    this.box.innerHTML =
      '<form class="jogo__mesa-nova" data-jogo-form onsubmit="return false">' +
      '<fieldset><legend>Variante</legend>' + radios("variant", c.variants.map(function (v) {
        return { value: v.name, title: v.title };
      }), variant.name) + "</fieldset>" +
      '<fieldset><legend>Formato</legend>' + radios("players", [
        { value: 2, title: "1×1 (você contra um robô)" }, { value: 4, title: "2×2 (você e um robô parceiro)" }
      ], s.players) + "</fieldset>" +
      '<fieldset><legend>Robôs</legend>' + radios("level", c.levels.map(function (l) {
        return { value: l.name, title: l.title, help: LEVEL_HELP[l.name] };
      }), s.level) + '<p class="jogo__opcao-ajuda">Ritmo dos robôs: ' + radios("pace", PACES, this.pace()) + "</p></fieldset>" +
      '<fieldset><legend>Mesa</legend><label class="jogo__opcao">Partida até <input type="number" name="target" min="' +
      (variant.min_target || c.target.min) + '" max="' + c.target.max + '" value="' + esc(s.target) + '" inputmode="numeric"> pontos</label>' +
      (variant.covered_cards === false ? "" : '<label class="jogo__opcao"><input type="checkbox" name="covered_cards"' +
        (s.covered_cards ? " checked" : "") + "> Carta coberta (da 2ª vaza em diante)</label>") +
      (variant.envido ? '<label class="jogo__opcao"><input type="checkbox" name="flor"' + (s.flor !== false ? " checked" : "") +
        "> Flor (três cartas do mesmo naipe valem 3)</label>" : "") + "</fieldset>" + ladder +
      '<fieldset><legend>Relógio</legend>' + (variant.name === "trem-bao"
        ? "<p>No Trem Bão cada decisão tem 30 s, sempre.</p>"
        : radios("timer", TIMERS.map(function (t) {
          return { value: t === null ? "" : t, title: t === null ? "Sem relógio" : t + " s por decisão" };
        }), s.timer === null || s.timer === undefined ? "" : s.timer)) + "</fieldset>" +
      '<p class="jogo__acoes"><button type="button" class="md-button md-button--primary" data-jogo-comecar>Dar as cartas</button></p>' +
      '<p class="jogo__erro" role="alert" data-jogo-form-erro></p>' +
      "</form>";
  };

  Game.prototype.readSetup = function () {
    var form = this.el.querySelector("[data-jogo-form]");
    var get = function (name) {
      var el = form.querySelector('[name="' + name + '"]:checked') || form.querySelector('[name="' + name + '"]');
      return el ? el.value : null;
    };
    var c = this.config.choices;
    var variant = get("variant");
    var info = c.variants.filter(function (v) { return v.name === variant; })[0];
    var ladder = get("ladder");
    var target = parseInt(get("target"), 10);
    var low = (info && info.min_target) || c.target.min;
    if (!(target >= low && target <= c.target.max)) {
      return { error: "A partida vai de " + low + " a " + c.target.max + " pontos." };
    }
    var covered = form.querySelector('[name="covered_cards"]');
    var flor = form.querySelector('[name="flor"]');
    return {
      variant: variant,
      players: parseInt(get("players"), 10),
      level: get("level"),
      target: target,
      covered_cards: covered ? covered.checked : false,
      flor: flor ? flor.checked : true,
      timer: get("timer") ? parseInt(get("timer"), 10) : null,
      ladder: ladder && info && info.ladders.length > 1 ? ladder.split("-").map(Number) : null
    };
  };

  Game.prototype.onChange = function (event) {
    if (event.target.name === "pace" || event.target.hasAttribute("data-jogo-ritmo")) {
      save(PACE, parseInt(event.target.value, 10));
      return;
    }
    if (event.target.name === "players") {
      /* a target left at the table's default follows it (gaudério: 18 in 1×1, 24 in 2×2) */
      var info = this.config.choices.variants.filter(function (v) { return v.name === this.setup.variant; }, this)[0];
      var input = this.el.querySelector('[data-jogo-form] [name="target"]');
      var was = this.setup.players;
      this.setup.players = parseInt(event.target.value, 10);
      if (info && info.targets && input && parseInt(input.value, 10) === info.targets[String(was)]) {
        input.value = info.targets[String(this.setup.players)];
      }
      return;
    }
    if (event.target.name === "variant") {
      var before = this.setup;
      var s = this.readSetup();
      var bad = !!s.error;
      if (bad) {
        s = before;
        s.variant = event.target.value;
      }
      var c = this.config.choices;
      var old = c.variants.filter(function (v) { return v.name === before.variant; })[0];
      var now = c.variants.filter(function (v) { return v.name === s.variant; })[0];
      /* a target left at the old table's default follows the new table's default */
      if (now && now.targets && (!old || !old.targets || s.target === old.targets[String(before.players)] || bad)) {
        s.target = now.targets[String(s.players)];
      }
      s.ladder = null;
      delete s.error;
      this.setup = s;
      this.renderSetup();
    }
  };

  // ------------------------------------------------------------ moves

  Game.prototype.start = function () {
    var s = this.readSetup();
    var out = this.el.querySelector("[data-jogo-form-erro]");
    if (s.error) {
      out.textContent = s.error;
      return;
    }
    this.setup = s;
    save(SETUP, s);
    var self = this;
    this.boot().then(function () {
      self.thinkMs = [];
      return self.send("new", { setup: s });
    }).then(function () {
      /* on a phone the form was long: bring the score and the opponents back into sight */
      self.el.scrollIntoView({ block: "start" });
    });
  };

  Game.prototype.restore = function (snapshot) {
    var self = this;
    return this.send("restore", { snapshot: snapshot }).catch(function () {
      save(SAVED, null); // an old or broken save: start over with a new table
      self.renderSetup();
    });
  };

  Game.prototype.send = function (op, data) {
    var self = this;
    this.busy = true;
    return engine.send(op, data).then(function (msg) {
      self.busy = false;
      self.show(msg.state, msg.snapshot);
      return msg;
    }, function (e) {
      self.busy = false;
      throw e;
    });
  };

  Game.prototype.show = function (state, snapshot) {
    var prev = this.state;
    this.state = state;
    this.announce(prev, state);
    save(SAVED, { snapshot: snapshot });
    if (typeof state.think_ms === "number") {
      this.thinkMs.push(state.think_ms);
      this.el.setAttribute("data-jogo-robo-ms", this.thinkMs.map(function (x) { return x.toFixed(2); }).join(" "));
    }
    this.render();
    this.schedule();
  };

  Game.prototype.announce = function (prev, st) {
    var out = [];
    if (st.result && !(prev && prev.result && prev.hand_number === st.hand_number)) {
      out.push(st.result.text + (st.result.why ? " " + st.result.why : ""));
      out.push("Placar: " + st.teams[0] + " " + st.score[0] + ", " + st.teams[1] + " " + st.score[1] + ".");
    }
    var changed = !prev || prev.waiting !== st.waiting || prev.status !== st.status;
    if ((st.waiting === "you" || st.waiting === "match_over") && changed) out.push(st.status);
    if (st.error) out.push(st.error);
    if (out.length) this.live.textContent = out.join(" ");
  };

  /* Where focus goes after the table is drawn anew: the same control when it was one that stays
     (the pace, the log, Nova mesa), else the next thing to do. */
  Game.prototype.keyOf = function (el) {
    var keep = ["[data-jogo-ritmo]", ".jogo__log > summary", ".jogo__sinais > summary", "[data-jogo-nova]",
      ".jogo__rodape a", ".jogo__resultado .md-typeset__table"];
    for (var i = 0; i < keep.length; i++) if (el.matches(keep[i])) return keep[i];
    return null;
  };

  Game.prototype.nextTarget = function () {
    var box = this.box, st = this.state;
    if (st.waiting === "you") {
      return box.querySelector(".jogo__mao button[data-acao]") || box.querySelector(".jogo__botoes button") ||
        box.querySelector(".jogo__sinais > summary");
    }
    if (st.waiting === "hand_over") return box.querySelector("[data-jogo-proxima]");
    if (st.waiting === "match_over") return box.querySelector("[data-jogo-revanche]");
    return box.querySelector(".jogo__mao"); /* the robots play: the cards are next */
  };

  /* The person's clock (R10): the engine plays its default action when it runs out. */
  Game.prototype.countdown = function () {
    var self = this;
    clearInterval(this.clock);
    var st = this.state;
    if (!st || st.waiting !== "you" || !st.timer) return;
    var ends = Date.now() + st.timer * 1000;
    var step = this.step;
    var tick = function () {
      var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      var out = self.el.querySelector("[data-jogo-relogio]");
      if (out) out.textContent = "⏱ " + left + " s";
      if (!self.el.isConnected || self.step !== step) { clearInterval(self.clock); return; }
      if (left === 0 && !self.busy) {
        clearInterval(self.clock);
        self.send("timeout");
      }
    };
    tick();
    this.clock = setInterval(tick, 250);
  };

  Game.prototype.schedule = function () {
    var self = this;
    this.countdown();
    clearTimeout(this.timer);
    if (!this.state || this.state.waiting !== "robot" || !this.el.isConnected) return;
    this.timer = setTimeout(function () {
      if (self.el.isConnected && !self.busy) self.send("robot");
    }, this.pace());
  };

  Game.prototype.onClick = function (event) {
    var t = event.target.closest("button");
    if (!t || !this.el.contains(t) || t.disabled) return;
    if (t.hasAttribute("data-jogo-recarregar")) { location.reload(); return; }
    if (t.hasAttribute("data-jogo-comecar")) { this.start(); return; }
    if (this.busy) return;
    this.moved = true;
    if (t.hasAttribute("data-acao")) {
      var blind = /^blind (\d)$/.exec(t.getAttribute("data-acao"));
      if (blind) {
        this.blind = { hand: this.state.hand_number, slots: this.state.blind_slots.filter(function (x) { return x !== +blind[1]; }) };
      }
      this.send("act", { action: t.getAttribute("data-acao") });
      return;
    }
    if (t.hasAttribute("data-sinal")) { this.send("act", { action: t.getAttribute("data-sinal") }); return; }
    if (t.hasAttribute("data-jogo-proxima")) { this.send("deal"); return; }
    if (t.hasAttribute("data-jogo-revanche")) { this.send("rematch"); return; }
    if (t.hasAttribute("data-jogo-nova")) {
      var st = this.state;
      var playing = st && st.waiting !== "match_over" && (st.hand_number > 1 || st.log.length > 0);
      if (playing && !window.confirm("Abandonar esta partida (" + st.score[0] + " × " + st.score[1] + ") e montar outra mesa?")) return;
      clearTimeout(this.timer);
      clearInterval(this.clock);
      save(SAVED, null);
      this.state = null;
      this.renderSetup();
      var first = this.box.querySelector("[data-jogo-form] input:checked");
      if (first) window.trucoSite.focusOn(first);
    }
  };

  // ------------------------------------------------------------ the table

  Game.prototype.seatHtml = function (seat) {
    var st = this.state;
    var info = st.seats[seat];
    var where = place(seat, st.players);
    var said = st.speech[String(seat)];
    var acting = st.to_act.indexOf(seat) >= 0 && st.waiting !== "hand_over" && st.waiting !== "match_over";
    var out = '<div class="jogo__lugar jogo__lugar--' + where + (acting ? " jogo__lugar--vez" : "") +
      '" data-lugar="' + seat + '"><div class="jogo__nome">' + esc(info.name) +
      ' <small>(' + esc(st.teams[info.team]) + ")</small></div>";
    if (seat !== 0) out += backs(st.cards_left[seat]);
    if (said) out += '<div class="jogo__fala" role="status" data-fala="' + seat + '">' + esc(said) + "</div>";
    return out + "</div>";
  };

  Game.prototype.tableHtml = function () {
    var st = this.state;
    var spots = {};
    /* an empty table shows the round just closed, so the last cards played stay visible */
    var plays = st.table.length ? st.table : st.past.length ? st.past[st.past.length - 1] : [];
    var closed = !st.table.length && st.past.length > 0;
    plays.forEach(function (p) {
      var mine = p.seat === 0;
      spots[p.seat] = p.covered && !mine ? card(null) : card(p.card, p.covered ? "carta--coberta carta--minha" : "");
    });
    var out = '<div class="jogo__centro' + (closed ? " jogo__centro--fechada" : "") + '" role="group" aria-label="' +
      (closed ? "Cartas da última vaza" : "Cartas da vaza") + '">';
    for (var s = 0; s < st.players; s++) {
      out += '<div class="jogo__jogada jogo__jogada--' + place(s, st.players) + '" data-jogada="' + s + '">' + (spots[s] || "") + "</div>";
    }
    return out + "</div>";
  };

  /* After a hand: every card the rules show, round by round (a covered card stays covered,
     and cards never played stay unseen), with who took each round. */
  Game.prototype.revealedHtml = function () {
    var st = this.state;
    if (!st.past.length) return "";
    var head = "<tr><th scope=\"col\">Vaza</th>";
    for (var s = 0; s < st.players; s++) head += '<th scope="col">' + esc(st.seats[s].name) + "</th>";
    var rows = st.past.map(function (plays, i) {
      var r = st.rounds[i];
      var row = '<tr><th scope="row">' + (i + 1) + "ª <small>(" + (r === null || r === undefined ? "cangou" : esc(st.teams[r])) + ")</small></th>";
      for (var s = 0; s < st.players; s++) {
        var p = plays.filter(function (x) { return x.seat === s; })[0];
        row += "<td>" + (!p ? "" : p.card ? card(p.card, "carta--pequena") : '<span class="jogo__coberta">coberta</span>') + "</td>";
      }
      return row + "</tr>";
    }).join("");
    return '<div class="md-typeset__table" tabindex="0"><table class="jogo__reveladas" data-jogo-reveladas><caption>Cartas mostradas nesta mão</caption>' +
      "<thead>" + head + "</tr></thead><tbody>" + rows + "</tbody></table></div>";
  };

  Game.prototype.infoHtml = function () {
    var st = this.state;
    var rounds = [0, 1, 2].map(function (i) {
      var r = st.rounds[i];
      var cls = r === undefined ? "" : r === null ? " jogo__vaza--empate" : r === 0 ? " jogo__vaza--nos" : " jogo__vaza--eles";
      var title = r === undefined ? "ainda não jogada" : r === null ? "cangou" : "de " + st.teams[r];
      return '<span class="jogo__vaza' + cls + '" title="' + (i + 1) + "ª vaza: " + title + '">' + (i + 1) + "ª</span>";
    }).join("");
    var manilhas = st.vira
      ? '<span class="jogo__vira">Vira ' + card(st.vira) + "</span>"
      : "";
    manilhas += '<span class="jogo__manilhas">' + (st.variant === "gauderio" ? "As mais fortes " : "Manilhas ") + st.manilhas.map(function (c) { return card(c); }).join("") + "</span>";
    return '<div class="jogo__info">' + manilhas +
      (st.phase === "decide"
        ? '<span class="jogo__valendo" data-valendo="' + st.special_value + '">Vale <strong>' + st.special_value +
          "</strong> se jogarem (correndo, " + st.hand_value + " para os outros)</span>"
        : '<span class="jogo__valendo" data-valendo="' + st.stake + '">Valendo <strong>' + st.stake + "</strong></span>") +
      '<span class="jogo__vazas" data-vazas="' + st.rounds.map(function (r) { return r === null ? "x" : r; }).join("") + '">Vazas ' + rounds + "</span></div>";
  };

  Game.prototype.handHtml = function () {
    var st = this.state;
    var legal = {};
    st.legal.forEach(function (a) { legal[a.action] = a; });
    var out = '<div class="jogo__mao" role="group" aria-label="Suas cartas" tabindex="-1">';
    if (st.kind === "iron") {
      /* nobody sees their own cards: the person picks a position (on their turn) */
      if (st.blind_slots.length) {
        st.blind_slots.forEach(function (slot) {
          out += '<button type="button" class="carta carta--verso jogo__cega" data-acao="blind ' + slot +
            '" aria-label="' + (slot + 1) + 'ª carta, às cegas"><span>' + (slot + 1) + "ª</span></button>";
        });
      } else {
        /* not the person's turn: the positions they still hold, as last offered minus the one
           they chose (the view names positions only on their turn); unknown after a reload */
        var left = st.cards_left[0] === 3 ? [0, 1, 2]
          : this.blind && this.blind.hand === st.hand_number && this.blind.slots.length === st.cards_left[0]
            ? this.blind.slots : null;
        for (var i = 0; i < st.cards_left[0]; i++) {
          var n = left ? left[i] + 1 + "ª" : "";
          out += '<button type="button" class="carta carta--verso jogo__cega" disabled aria-label="' +
            (n ? n + " " : "") + 'carta, às cegas"><span>' + n + "</span></button>";
        }
      }
      return out + "</div>";
    }
    st.hand.forEach(function (c) {
      var play = legal["play " + c.code];
      var cover = legal["cover " + c.code];
      out += '<div class="jogo__carta">' +
        '<button type="button" class="' + "carta carta--" + c.code[1].toLowerCase() + (c.manilha ? " carta--manilha" : "") +
        '" data-card="' + esc(c.code) + '"' + (play ? ' data-acao="play ' + esc(c.code) + '"' : " disabled") +
        ' title="' + esc(c.name + " · " + c.esp_name) + '">' +
        /* the name starts with what the button shows (6♦, or 6 in the Spanish deck), then says it */
        faces(c) + '<span class="sr-only">: jogar ' + esc(c.name) + (c.manilha ? ", manilha" : "") + "</span></button>" +
        (cover ? '<button type="button" class="jogo__cobrir" data-acao="cover ' + esc(c.code) + '">🂠 coberta</button>' : "") +
        "</div>";
    });
    return out + "</div>";
  };

  Game.prototype.buttonsHtml = function () {
    var st = this.state;
    var calls = st.legal.filter(function (a) { return ["play", "cover", "blind"].indexOf(a.act) < 0; });
    if (!calls.length) return "";
    return '<div class="jogo__botoes">' + calls.map(function (a) {
      var primary = a.act === "truco" || a.act === "raise" || a.act === "accept" || a.act === "play11" ||
        a.act === "envido" || a.act === "quero";
      return '<button type="button" class="md-button' + (primary ? " md-button--primary" : "") + '" data-acao="' +
        esc(a.action) + '">' + esc(a.label) + "</button>";
    }).join("") + "</div>";
  };

  /* sinais (R12): the list opens from 👁️ Sinal; what the person received or caught stays shown */
  Game.prototype.signalsHtml = function () {
    var st = this.state;
    var out = "";
    if (st.seen_signals && st.seen_signals.length) {
      out += '<ul class="jogo__sinais-vistos" data-jogo-sinais-vistos>' +
        st.seen_signals.map(function (line) { return "<li>" + esc(line) + "</li>"; }).join("") + "</ul>";
    }
    if (st.signals && st.signals.length) {
      out += '<details class="jogo__sinais" data-jogo-sinais><summary>👁️ Sinal</summary>' +
        '<div class="jogo__botoes">' + st.signals.map(function (a) {
          return '<button type="button" class="md-button" data-sinal="' + esc(a.action) + '">' + esc(a.label) + "</button>";
        }).join("") + "</div></details>";
    }
    return out;
  };

  /* The deck style the table is drawn in: the person's own choice if they made one, else the
     variant's default (R13.1: the Spanish deck at a gaudério table), without storing it. */
  function tableDeck(style) {
    var chosen = null;
    try { chosen = localStorage.getItem(DECK); } catch (e) { /* private mode */ }
    document.documentElement.setAttribute("data-baralho", chosen || style || "tradicional");
  }

  /* The points game (gaudério): the flors sung and how the envido ended, said to everybody */
  Game.prototype.pointsHtml = function () {
    var st = this.state;
    var lines = (st.flor_texts || []).slice();
    if (st.envido_text) lines.push(st.envido_text);
    if (!lines.length) return "";
    return '<ul class="jogo__pontos" data-jogo-pontos>' + lines.map(function (line) {
      return "<li>" + esc(line) + "</li>";
    }).join("") + "</ul>";
  };

  Game.prototype.render = function () {
    var st = this.state;
    tableDeck(st.deck_style);
    this.el.setAttribute("data-jogo-fase", "jogo");
    this.el.setAttribute("data-jogo-passo", String(++this.step));
    this.el.setAttribute("data-jogo-espera", st.waiting);
    this.el.setAttribute("data-jogo-mao", String(st.hand_number));
    var size = st.players === 4 ? "2×2" : "1×1";
    var head = '<div class="jogo__topo"><span class="jogo__titulo">' + esc(st.title) + " · " + size + " · até " + st.target +
      " · robôs " + esc(st.level_name) + '</span><span class="jogo__placar" data-placar="' + st.score.join("-") +
      '"><strong>' + esc(st.teams[0]) + " " + st.score[0] + "</strong> × <strong>" + st.score[1] + " " + esc(st.teams[1]) +
      "</strong></span></div>";
    var banner = st.kind_text ? '<div class="jogo__aviso jogo__aviso--' + st.kind + '">' + esc(st.kind_text) + "</div>" : "";
    var seats = "";
    for (var s = 0; s < st.players; s++) seats += this.seatHtml(s);
    var partner = "";
    if (st.partner_hand) {
      partner = '<div class="jogo__parceiro" data-jogo-parceiro>Cartas do parceiro: ' +
        st.partner_hand.map(function (c) { return card(c); }).join("") + "</div>";
    }
    var status = '<p class="jogo__status" data-jogo-status>' + esc(st.status) +
      (st.timer ? ' <span class="jogo__relogio" data-jogo-relogio></span>' : "") + "</p>";
    var error = st.error ? '<p class="jogo__erro" role="alert">' + esc(st.error) + "</p>" : "";
    var result = "";
    if (st.result) {
      result = '<div class="jogo__resultado" data-jogo-resultado><p><strong>' + esc(st.result.text) + "</strong>" +
        (st.result.why ? " " + esc(st.result.why) : "") + "</p>" + this.revealedHtml() + "</div>";
    }
    var after = "";
    if (st.waiting === "hand_over") {
      after = '<p class="jogo__acoes"><button type="button" class="md-button md-button--primary" data-jogo-proxima>Próxima mão</button></p>';
    } else if (st.waiting === "match_over") {
      after = '<div class="jogo__fim" data-jogo-fim="' + st.match_winner + '"><strong>' + esc(st.status) + "</strong> " +
        st.score[0] + " × " + st.score[1] + '</div><p class="jogo__acoes">' +
        '<button type="button" class="md-button md-button--primary" data-jogo-revanche>Revanche</button></p>';
    }
    var log = st.log.length ? '<details class="jogo__log"><summary>Lances desta mão</summary><ol>' +
      st.log.map(function (line) { return "<li>" + esc(line) + "</li>"; }).join("") + "</ol></details>" : "";
    var active = document.activeElement;
    var had = (active && active !== this.box && this.box.contains(active)) || this.moved;
    var keep = had && active && this.box.contains(active) ? this.keyOf(active) : null;
    var open = [].map.call(this.box.querySelectorAll("details[open]"), function (d) { return d.className; });
    this.moved = false;
    var pace = this.pace();
    var foot = '<p class="jogo__rodape"><button type="button" class="md-button" data-jogo-nova>Nova mesa</button> ' +
      '<label class="jogo__ritmo">Robôs: <select data-jogo-ritmo>' + PACES.map(function (p) {
        return '<option value="' + p.value + '"' + (p.value === pace ? " selected" : "") + ">" + p.title + "</option>";
      }).join("") + "</select></label> " +
      '<a class="md-button" href="' + esc(this.config.telegram) + '">Jogar no Telegram</a></p>';
    this.box.innerHTML = head + banner +
      '<div class="jogo__pano jogo__pano--' + st.players + '">' + seats + this.tableHtml() + "</div>" +
      this.infoHtml() + this.pointsHtml() + status + error + result + after + partner + this.handHtml() + this.buttonsHtml() + this.signalsHtml() + log + foot;
    var box = this.box;
    open.forEach(function (cls) {
      var d = box.querySelector('details[class="' + cls + '"]');
      if (d) d.open = true;
    });
    if (had) {
      var target = (keep && box.querySelector(keep)) || this.nextTarget();
      if (target) window.trucoSite.focusOn(target);
    }
  };

  // ------------------------------------------------------------ boot

  window.trucoSite.mount("[data-jogo]", Game);
})();
