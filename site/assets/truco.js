/* Truco rulebook: deck style switch (R11) and the tutorial player. No framework, no outside requests.
 * Material's instant navigation swaps page content, so everything (re)initialises on `document$`
 * and finds its elements by data attributes; clicks are delegated once on the document. */
(function () {
  "use strict";

  var KEY = "truco-baralho";
  var ROOT = document.documentElement;
  var SYMBOL = { C: "♣", H: "♥", S: "♠", D: "♦" };
  var SUIT = { C: "paus", H: "copas", S: "espadas", D: "ouros" };
  var SUIT_ES = { C: "bastos", H: "copas", S: "espadas", D: "oros" };
  var RANK = { 4: "quatro", 5: "cinco", 6: "seis", 7: "sete", Q: "dama", J: "valete", K: "rei", A: "ás", 2: "dois", 3: "três" };
  var RANK_ES = { Q: "10", J: "11", K: "12", A: "1" }; /* engine.cards.SPANISH_RANKS */
  var TEAM = ["Nós", "Eles"];
  var ORDINAL = ["1ª", "2ª", "3ª"];

  // ------------------------------------------------------------ deck style

  function storedDeck() {
    try {
      return localStorage.getItem(KEY) === "espanhol" ? "espanhol" : "tradicional";
    } catch (e) {
      return "tradicional";
    }
  }

  function setDeck(style) {
    try {
      localStorage.setItem(KEY, style);
    } catch (e) { /* private mode: the choice lasts for this page only */ }
    ROOT.setAttribute("data-baralho", style);
    syncDeckButtons();
  }

  function syncDeckButtons() {
    var style = ROOT.getAttribute("data-baralho");
    document.querySelectorAll("[data-baralho-escolha] [data-baralho]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-baralho") === style));
    });
    var other = style === "espanhol" ? "tradicional" : "espanhol";
    document.querySelectorAll("[data-baralho-alternar]").forEach(function (b) {
      b.title = "Baralho " + style + " (trocar para " + other + ")";
      b.setAttribute("aria-label", b.title);
    });
  }

  function headerButton() {
    var inner = document.querySelector(".md-header__inner");
    if (!inner || inner.querySelector("[data-baralho-alternar]")) return;
    var b = document.createElement("button");
    b.type = "button";
    b.className = "md-header__button md-icon truco-baralho-botao";
    b.setAttribute("data-baralho-alternar", "");
    b.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="5" width="11" height="15" rx="2" ' +
      'transform="rotate(-12 8 12)" fill="none" stroke="currentColor" stroke-width="1.6"/><rect x="10" y="4" ' +
      'width="11" height="15" rx="2" fill="currentColor" opacity=".85"/></svg>';
    var search = inner.querySelector('label[for="__search"]');
    inner.insertBefore(b, search || null);
  }

  ROOT.setAttribute("data-baralho", storedDeck());

  // ------------------------------------------------------------ cards

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function cap(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function cardName(code) {
    return RANK[code[0]] + " de " + SUIT[code[1]];
  }

  function faces(code) {
    var r = code[0], s = code[1];
    return '<span class="carta__trad">' + r + '<span class="carta__naipe">' + SYMBOL[s] + "</span></span>" +
      '<span class="carta__esp">' + (RANK_ES[r] || r) + '<span class="naipe-esp naipe-esp--' + SUIT_ES[s] +
      '"></span></span>';
  }

  /* Same markup as the site's generated tables (site/_hooks/truco.py: card_html). */
  function card(code, extra) {
    if (!code) return '<span class="carta carta--verso" role="img" aria-label="carta virada"><span></span></span>';
    return '<span class="carta carta--' + code[1].toLowerCase() + (extra ? " " + extra : "") + '" data-card="' +
      code + '" role="img" aria-label="' + cardName(code) + '">' + faces(code) + "</span>";
  }

  // ------------------------------------------------------------ tutorial player

  function Player(el) {
    this.el = el;
    this.trace = JSON.parse(el.getAttribute("data-tutorial-trace"));
    this.h = 0;
    this.f = 0;
    this.cover = false;
    this.error = "";
    el.setAttribute("data-tutorial-pronto", "");
    this.box = document.createElement("div");
    this.box.className = "tut";
    el.appendChild(this.box);
    el.addEventListener("click", this.onClick.bind(this));
    this.render();
  }

  Player.prototype.hand = function () {
    return this.trace.hands[this.h];
  };

  Player.prototype.view = function () {
    var hand = this.hand();
    return this.f === 0 ? hand.start : hand.steps[this.f - 1].view;
  };

  Player.prototype.next = function () {
    return this.hand().steps[this.f] || null;
  };

  Player.prototype.label = function (action, view) {
    var names = this.hand().call_names;
    var special = this.hand().variant === "mineiro" ? "mão de dez" : "mão de onze";
    if (action === "truco") return cap(names[view.ladder.indexOf(view.stake) + 1]) + "!";
    if (action === "raise") return "Aumentar: " + cap(names[view.ladder.indexOf(view.pending_value) + 1]) + "!";
    if (action === "accept") return "Desce!";
    if (action === "run") return "Corro";
    if (action === "play11") return "Jogar a " + special;
    if (action === "run11") return "Correr da " + special;
    return action;
  };

  Player.prototype.seatName = function (seat) {
    if (seat === this.trace.seat) return "Você";
    return this.hand().players === 4 && seat === (this.trace.seat + 2) % 4 ? "Parceiro" : "Adversário";
  };

  Player.prototype.plays = function (table) {
    var self = this;
    return table.map(function (p) {
      var mine = p[0] === self.trace.seat;
      var c = p[2] ? card(p[1], "carta--coberta" + (mine ? " carta--minha" : "")) : card(p[1]);
      if (p[2] && !mine) c = '<span class="carta carta--coberta" role="img" aria-label="carta coberta"><span></span></span>';
      return '<div><div class="tut__rotulo">' + esc(self.seatName(p[0])) + "</div>" + c + "</div>";
    }).join("");
  };

  Player.prototype.render = function () {
    var hand = this.hand(), view = this.view(), next = this.next(), me = this.trace.seat;
    var mine = !!(next && next.prompt);
    var legal = mine ? view.legal : [];
    var last = this.h === this.trace.hands.length - 1;
    var html = '<div class="tut__topo"><span>Mão ' + (this.h + 1) + " de " + this.trace.hands.length + " · " +
      esc(hand.title) + "</span><span>Placar: Nós " + view.score[0] + " × " + view.score[1] +
      " Eles · a mão vale " + view.stake + "</span></div>";

    html += '<div class="tut__mesa">';
    for (var s = 0; s < view.players; s++) {
      if (s === me) continue;
      html += '<div><div class="tut__rotulo">' + esc(this.seatName(s)) + '</div><span class="cartas">' +
        new Array(view.cards_left[s] + 1).join(card(null)) + "</span></div>";
    }
    html += '<div class="tut__centro">';
    if (view.vira) {
      html += '<div><div class="tut__rotulo">vira</div>' + card(view.vira) + "</div>";
      html += '<div><div class="tut__rotulo">manilhas</div><span class="cartas">' +
        view.manilhas.map(function (c) { return card(c); }).join("") + "</span></div>";
    }
    if (view.table.length) {
      html += this.plays(view.table);
    } else if (view.past.length && this.f > 0) {
      html += '<div><div class="tut__rotulo">última vaza</div><div class="tut__centro">' +
        this.plays(view.past[view.past.length - 1]) + "</div></div>";
    }
    html += "</div>";
    if (view.rounds.length) {
      html += '<div class="tut__vazas" data-tutorial-vazas>' + view.rounds.map(function (r, i) {
        return ORDINAL[i] + " vaza: " + (r === null ? "cangou" : TEAM[r]);
      }).join(" · ") + "</div>";
    }
    if (view.pending_value !== null) {
      html += '<div class="tut__rotulo">Pedido na mesa: vale ' + view.pending_value + " se aceito</div>";
    }

    html += '<div class="tut__rotulo">Sua mão</div><div class="tut__mao">';
    var self = this;
    var expected = mine ? next.action : "";
    view.hand.forEach(function (c) {
      var act = (self.cover ? "cover " : "play ") + c;
      var ok = legal.indexOf(act) >= 0;
      var cls = "carta carta--" + c[1].toLowerCase();
      if (view.manilhas.indexOf(c) >= 0) cls += " tut__manilha";
      if (self.cover && ok) cls += " tut--cobrindo";
      if (self.error && (act === expected || "cover " + c === expected)) cls += " tut--dica";
      html += '<button type="button" class="' + cls + '" data-acao="' + act + '" aria-label="' +
        (self.cover ? "cobrir " : "jogar ") + cardName(c) + '"' + (ok ? "" : " disabled") + ">" + faces(c) + "</button>";
    });
    html += '</div><div class="tut__botoes">';
    legal.forEach(function (a) {
      if (/^(play|cover) /.test(a)) return;
      html += '<button type="button" class="md-button" data-acao="' + a + '">' + esc(self.label(a, view)) + "</button>";
    });
    if (legal.some(function (a) { return a.indexOf("cover ") === 0; })) {
      html += '<button type="button" class="md-button" data-acao="cobrir" aria-pressed="' + this.cover + '">' +
        (this.cover ? "Jogar aberta" : "Jogar coberta") + "</button>";
    }
    html += "</div></div>";

    html += '<div class="tut__texto" aria-live="polite">';
    if (this.f === 0) {
      html += "<p>" + esc(hand.intro) + "</p>";
    } else {
      var done = hand.steps[this.f - 1];
      html += "<p><strong>" + esc(done.narration) + "</strong></p><p>" + esc(done.explanation) + "</p>";
    }
    if (mine) html += '<p class="tut__pedido" data-tutorial-pedido>' + esc(next.prompt) + "</p>";
    if (this.error) html += '<p class="tut__erro" role="alert">' + esc(this.error) + "</p>";
    if (!next) {
      var pts = hand.result.points;
      var won = pts[0] ? "nós marcamos " + pts[0] : pts[1] ? "eles marcam " + pts[1] : "ninguém marcou";
      html += "<p><strong>Fim da mão: " + won + ". Placar " +
        view.score[0] + " × " + view.score[1] + ".</strong></p>";
      if (last) html += "<p><strong>Fim do treino. Agora é com você: mande /truco para o bot!</strong></p>";
    }
    html += '</div><div class="tut__nav">';
    var atStart = this.h === 0 && this.f === 0;
    html += '<button type="button" class="md-button" data-tutorial-voltar' + (atStart ? " disabled" : "") + ">Voltar</button>";
    if (next && !mine) html += '<button type="button" class="md-button md-button--primary" data-tutorial-seguir>Continuar</button>';
    if (!next && !last) html += '<button type="button" class="md-button md-button--primary" data-tutorial-seguir>Próxima mão</button>';
    html += '<button type="button" class="md-button" data-tutorial-recomecar>Recomeçar</button></div>';

    this.box.innerHTML = html;
    this.el.setAttribute("data-tutorial-passo", this.h + "." + this.f);
    if (!next && last) this.el.setAttribute("data-tutorial-fim", "");
    else this.el.removeAttribute("data-tutorial-fim");
  };

  Player.prototype.go = function (h, f) {
    this.h = h;
    this.f = f;
    this.cover = false;
    this.error = "";
    this.render();
  };

  Player.prototype.onClick = function (event) {
    var t = event.target.closest("button");
    if (!t || !this.el.contains(t) || t.disabled) return;
    var next = this.next();
    if (t.hasAttribute("data-tutorial-recomecar")) return this.go(0, 0);
    if (t.hasAttribute("data-tutorial-voltar")) {
      if (this.f > 0) return this.go(this.h, this.f - 1);
      if (this.h > 0) return this.go(this.h - 1, this.trace.hands[this.h - 1].steps.length);
      return;
    }
    if (t.hasAttribute("data-tutorial-seguir")) {
      if (next) return this.go(this.h, this.f + 1);
      return this.go(this.h + 1, 0);
    }
    var act = t.getAttribute("data-acao");
    if (!act || !next || !next.prompt) return;
    if (act === "cobrir") {
      this.cover = !this.cover;
      this.error = "";
      return this.render();
    }
    if (act === next.action) return this.go(this.h, this.f + 1);
    this.error = "Esse lance é permitido, mas não é o que este passo ensina. " + next.prompt;
    this.render();
  };

  // ------------------------------------------------------------ boot

  function boot() {
    headerButton();
    document.querySelectorAll("[data-tutorial]").forEach(function (el) {
      if (!el.hasAttribute("data-tutorial-pronto")) new Player(el);
    });
    syncDeckButtons();
  }

  document.addEventListener("click", function (event) {
    var b = event.target.closest && event.target.closest("[data-baralho], [data-baralho-alternar]");
    if (!b || b === ROOT) return;
    if (b.hasAttribute("data-baralho-alternar")) {
      setDeck(ROOT.getAttribute("data-baralho") === "espanhol" ? "tradicional" : "espanhol");
    } else {
      setDeck(b.getAttribute("data-baralho"));
    }
  });

  if (typeof window.document$ !== "undefined") {
    window.document$.subscribe(boot);
  } else {
    document.addEventListener("DOMContentLoaded", boot);
  }
})();
