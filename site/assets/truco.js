/* Truco rulebook: deck style switch (R11) and the tutorial player. No framework, no outside requests.
 * Material's instant navigation swaps page content, so everything (re)initialises on `document$`
 * and finds its elements by data attributes; clicks are delegated once on the document.
 * Loaded before jogo.js and marcador.js (mkdocs.yml), it gives them what every page script
 * shares: window.trucoSite (esc, load, save, registerOffline, mount). */
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
    refitAll(); /* lesson texts name cards in the chosen style */
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

  var PROGRESS = "truco-tutorial";
  var WRONG = "Esse lance é permitido, mas não é o que esta lição ensina agora: tente o lance marcado.";
  var players = [];

  function loadProgress() {
    var p = load(PROGRESS);
    if (p && typeof p === "object" && p.v === 2) return p;
    return { v: 2, atual: null, passos: {}, feitas: {} };
  }

  function saveProgress(p) {
    save(PROGRESS, p);
  }

  /* A lesson text in the chosen deck style: the trace carries both (engine.tutorial.Words). */
  function say(text) {
    if (text === null || text === undefined) return "";
    if (typeof text === "string") return text;
    return text[ROOT.getAttribute("data-baralho")] || text.tradicional;
  }

  function back(label) {
    return '<span class="carta carta--verso" role="img" aria-label="' + esc(label || "carta virada") + '"><span></span></span>';
  }

  function Player(el) {
    this.el = el;
    this.course = JSON.parse(el.getAttribute("data-tutorial-trace"));
    this.lesson = null;
    this.h = 0;
    this.f = 0;
    this.cover = false;
    this.error = "";
    el.setAttribute("data-tutorial-pronto", "");
    this.box = document.createElement("div");
    this.box.className = "tut";
    this.measure = document.createElement("div");
    this.measure.className = "tut tut--medida";
    this.measure.setAttribute("aria-hidden", "true");
    /* what changed after each move, said to screen readers: the box itself is drawn anew */
    this.live = document.createElement("div");
    this.live.className = "sr-only";
    this.live.setAttribute("role", "status");
    this.live.setAttribute("data-tutorial-aviso", "");
    el.appendChild(this.box);
    el.appendChild(this.measure);
    el.appendChild(this.live);
    el.addEventListener("click", this.onClick.bind(this));
    players.push(this);
    var p = loadProgress();
    var lesson = p.atual ? this.find(p.atual) : null;
    if (lesson) {
      var at = this.position(lesson, p.passos[lesson.id]);
      this.open(lesson, at[0], at[1]);
    } else {
      this.showMenu();
    }
  }

  Player.prototype.find = function (id) {
    var found = null;
    this.course.lessons.forEach(function (l) { if (l.id === id) found = l; });
    return found;
  };

  /* A remembered "hand.step" if it still exists in this lesson, else the start. */
  Player.prototype.position = function (lesson, text) {
    var m = /^(\d+)\.(\d+)$/.exec(text || "");
    if (!m) return [0, 0];
    var h = +m[1], f = +m[2];
    if (h >= lesson.hands.length || f > lesson.hands[h].steps.length) return [0, 0];
    return [h, f];
  };

  Player.prototype.remember = function () {
    var p = loadProgress();
    p.atual = this.lesson ? this.lesson.id : null;
    if (this.lesson) {
      p.passos[this.lesson.id] = this.h + "." + this.f;
      if (this.finished()) p.feitas[this.lesson.id] = true;
    }
    saveProgress(p);
  };

  Player.prototype.finished = function () {
    var L = this.lesson;
    return !!L && this.h === L.hands.length - 1 && this.f === L.hands[this.h].steps.length;
  };

  Player.prototype.showMenu = function () {
    this.lesson = null;
    var p = loadProgress();
    var html = '<div class="tut__topo"><span>' + esc(say(this.course.title)) + '</span><span>' +
      Object.keys(p.feitas).filter(this.find, this).length + " de " + this.course.lessons.length +
      ' lições concluídas</span></div><div class="tut__menu" data-tutorial-menu><p>Escolha uma lição. ' +
      "Cada uma é uma mão curta (ou poucas mãos seguidas) em que você joga e o site explica cada lance. " +
      'Se sair da página, o site guarda onde você parou.</p><ol class="tut__licoes">';
    this.course.lessons.forEach(function (l) {
      var state = "";
      if (p.feitas[l.id]) state = '<span class="tut__estado tut__estado--feita">✓ concluída</span>';
      else if (p.passos[l.id] && p.passos[l.id] !== "0.0") state = '<span class="tut__estado">em andamento</span>';
      html += '<li><button type="button" class="tut__licao" data-tutorial-escolher="' + esc(l.id) + '">' +
        '<span class="tut__licao-titulo">' + esc(say(l.title)) + "</span>" + state +
        '<span class="tut__licao-resumo">' + esc(say(l.summary)) + "</span></button></li>";
    });
    html += "</ol></div>";
    this.box.style.minHeight = "";
    this.box.classList.remove("tut--licao");
    this.box.innerHTML = html;
    this.el.setAttribute("data-tutorial-licao", "");
    this.el.removeAttribute("data-tutorial-passo");
    this.el.removeAttribute("data-tutorial-fim");
    this.remember();
  };

  Player.prototype.open = function (lesson, h, f) {
    this.lesson = lesson;
    this.el.setAttribute("data-tutorial-licao", lesson.id);
    this.go(h || 0, f || 0);
    this.fit();
  };

  Player.prototype.label = function (hand, action, view) {
    var names = hand.call_names;
    var special = hand.variant === "mineiro" ? "mão de dez" : "mão de onze";
    if (action === "truco") return cap(names[view.ladder.indexOf(view.stake) + 1]) + "!";
    if (action === "raise") return "Aumentar: " + cap(names[view.ladder.indexOf(view.pending_value) + 1]) + "!";
    if (action === "accept") return "Desce!";
    if (action === "run") return "Corro";
    if (action === "play11") return "Jogar a " + special;
    if (action === "run11") return "Correr da " + special;
    /* gaudério's points game (engine.words ENVIDO_ACTS) */
    var pontos = { envido: "Envido!", "real-envido": "Real envido!", "falta-envido": "Falta envido!", quero: "Quero!", "nao-quero": "Não quero" };
    if (pontos[action]) return pontos[action];
    var sinal = this.sinal(action);
    if (sinal) return sinal.emoji + " " + sinal.name;
    return null;
  };

  /* The row of the signals table (engine.sinais, in the trace) an action "signal zap" names. */
  Player.prototype.sinal = function (action) {
    var m = /^signal (\S+)$/.exec(action || "");
    if (!m) return null;
    var found = null;
    (this.course.sinais || []).forEach(function (s) { if (s.code === m[1]) found = s; });
    return found;
  };

  /* The signals the learner has received or caught in this hand, as the view tells them. */
  Player.prototype.signalsSeen = function (hand, view) {
    var me = this.lesson.seat, self = this, out = [];
    view.history.forEach(function (e) {
      var s = self.sinal(e[1]);
      if (s && e[0] !== me) out.push(esc(hand.seat_names[e[0]]) + " " + s.emoji + " " + esc(s.name));
    });
    return out;
  };

  Player.prototype.plays = function (hand, table) {
    var me = this.lesson.seat;
    return table.map(function (p) {
      var mine = p[0] === me;
      var c;
      if (p[2] && !mine) c = '<span class="carta carta--coberta" role="img" aria-label="carta coberta"><span></span></span>';
      else c = card(p[1], p[2] ? "carta--coberta carta--minha" : "");
      return '<div class="tut__jogada tut__lance"><div class="tut__rotulo">' + esc(hand.seat_names[p[0]]) + "</div>" + c + "</div>";
    }).join("");
  };

  Player.prototype.marks = function (view, seat) {
    var out = "";
    if (seat === view.dealer) out += ' <span class="tut__marca">deu as cartas</span>';
    if (seat === (view.dealer + 1) % view.players) out += ' <span class="tut__marca">sai primeiro</span>';
    return out;
  };

  /* The whole box for step f of hand h: a pure function of the position, so it can be measured. */
  Player.prototype.markup = function (h, f, cover, error) {
    var L = this.lesson, hand = L.hands[h], me = L.seat;
    var view = f === 0 ? hand.start : hand.steps[f - 1].view;
    var next = hand.steps[f] || null;
    var mine = !!(next && next.prompt);
    /* signals are offered only when the lesson teaches one: elsewhere they would only distract */
    var legal = !mine ? [] : /^signal /.test(next.action) ? view.legal.concat(view.legal_signals) : view.legal;
    var lastHand = h === L.hands.length - 1;
    var self = this;
    var total = 0, done = 0;
    L.hands.forEach(function (x, i) {
      total += x.steps.length;
      if (i < h) done += x.steps.length;
    });
    done += f;

    /* the lesson's whole title and the score; what the hand is worth goes with the vazas */
    var html = '<div class="tut__topo"><span>' + esc(say(L.title)) + (L.hands.length > 1 ? " · mão " + (h + 1) +
      " de " + L.hands.length : "") + '</span><span><span class="sr-only">Placar: </span>Nós ' + view.score[0] + " × " + view.score[1] +
      " Eles</span></div>";
    html += '<div class="tut__progresso" role="progressbar" aria-label="Progresso da lição" aria-valuemin="0" ' +
      'aria-valuemax="' + total + '" aria-valuenow="' + done + '"><span style="width:' +
      Math.round(100 * done / total) + '%"></span></div>';

    html += '<div class="tut__mesa"><div class="tut__titulo">' + esc(say(hand.title)) + "</div>";
    html += '<div class="tut__outros tut__outros--' + view.players + '">';
    /* seen from the learner's chair: left opponent, partner across, right opponent */
    var around = view.players === 4 ? [(me + 3) % 4, (me + 2) % 4, (me + 1) % 4] : [(me + 1) % 2];
    for (var i = 0; i < around.length; i++) {
      var s = around[i];
      var cards;
      if (view.partner_hand && s === (me + 2) % 4) {
        cards = view.partner_hand.map(function (c) { return card(c); }).join("");
      } else {
        cards = new Array(view.cards_left[s] + 1).join(back());
      }
      var where = view.players === 4 ? ["direita", "parceiro", "esquerda"][(s - me + 3) % 4] : "frente";
      html += '<div class="tut__lugar tut__lugar--' + where + '"><div class="tut__rotulo">' + esc(hand.seat_names[s]) + this.marks(view, s) +
        '</div><span class="cartas">' + cards + "</span></div>";
    }
    html += "</div>";

    html += '<div class="tut__centro">';
    if (view.vira) html += '<div class="tut__jogada"><div class="tut__rotulo">vira</div>' + card(view.vira) + "</div>";
    if (view.manilhas.length) {
      html += '<div class="tut__jogada"><div class="tut__rotulo">manilhas' + (view.vira ? "" : " (fixas)") +
        '</div><span class="cartas">' + view.manilhas.map(function (c) { return card(c); }).join("") + "</span></div>";
    }
    if (view.table.length) {
      html += this.plays(hand, view.table);
    } else if (view.past.length && f > 0) {
      html += '<div class="tut__jogada"><div class="tut__rotulo">última vaza</div><div class="tut__centro">' +
        this.plays(hand, view.past[view.past.length - 1]) + "</div></div>";
    }
    html += "</div>";
    var status = ["a mão vale " + view.stake];
    view.rounds.forEach(function (r, i) {
      status.push(ORDINAL[i] + " vaza: " + (r === null ? "cangou" : TEAM[r]));
    });
    if (view.pending_value !== null) status.push("pedido na mesa: vale " + view.pending_value + " se aceito");
    html += '<div class="tut__vazas" data-tutorial-vazas>' + cap(status.join(" · ")) + "</div>";
    var seen = this.signalsSeen(hand, view);
    if (seen.length) html += '<div class="tut__vazas" data-tutorial-sinais>Sinais: ' + seen.join(" · ") + "</div>";

    html += '<div class="tut__rotulo">Sua mão' + this.marks(view, me) + '</div><div class="tut__mao">';
    var expected = mine ? next.action : "";
    if (view.kind === "iron") {
      var used = {};
      view.history.forEach(function (e) {
        var b = /^blind (\d)$/.exec(e[1]);
        if (e[0] === me && b) used[b[1]] = true;
      });
      [0, 1, 2].forEach(function (slot) {
        if (used[slot]) return;
        var act = "blind " + slot;
        var ok = legal.indexOf(act) >= 0;
        var cls = "carta carta--verso tut__cega" + (error && act === expected ? " tut--dica" : "");
        html += '<button type="button" class="' + cls + '" data-acao="' + act + '" aria-label="' +
          ORDINAL[slot] + ': jogar esta carta às cegas"' + (ok ? "" : " disabled") + "><span>" + ORDINAL[slot] + "</span></button>";
      });
    } else {
      view.hand.forEach(function (c) {
        var act = (cover ? "cover " : "play ") + c;
        var ok = legal.indexOf(act) >= 0;
        var cls = "carta carta--" + c[1].toLowerCase();
        if (view.manilhas.indexOf(c) >= 0) cls += " tut__manilha";
        if (cover && ok) cls += " tut--cobrindo";
        if (error && (act === expected || "cover " + c === expected || "play " + c === expected)) cls += " tut--dica";
        /* the name starts with what the button shows (6♦, or 6 in the Spanish deck), then says it */
        html += '<button type="button" class="' + cls + '" data-acao="' + act + '"' +
          (ok ? "" : " disabled") + ">" + faces(c) + '<span class="sr-only">: ' + (cover ? "cobrir " : "jogar ") +
          cardName(c) + (view.manilhas.indexOf(c) >= 0 ? " (manilha)" : "") + "</span></button>";
      });
    }
    html += '</div><div class="tut__botoes">';
    legal.forEach(function (a) {
      var text = /^(play|cover|blind) /.test(a) ? null : self.label(hand, a, view);
      if (text === null) return;
      html += '<button type="button" class="md-button' + (error && a === expected ? " tut--dica" : "") +
        '" data-acao="' + a + '">' + esc(text) + "</button>";
    });
    if (legal.some(function (a) { return a.indexOf("cover ") === 0; })) {
      html += '<button type="button" class="md-button' + (error && expected.indexOf("cover ") === 0 && !cover ? " tut--dica" : "") +
        '" data-acao="cobrir" aria-pressed="' + cover + '">' + (cover ? "Jogar aberta" : "Jogar coberta") + "</button>";
    }
    html += "</div></div>";

    html += '<div class="tut__texto">';
    if (f === 0) {
      html += "<p>" + esc(say(hand.intro)) + "</p>";
    } else {
      var last = hand.steps[f - 1];
      html += '<p class="tut__narracao"><strong>' + esc(say(last.narration)) + "</strong></p><p>" + esc(say(last.explanation)) + "</p>";
    }
    if (mine) {
      html += '<p class="tut__pedido" data-tutorial-pedido><span class="tut__selo">Sua vez</span> ' + esc(say(next.prompt)) + "</p>";
    }
    if (error) html += '<p class="tut__erro" role="alert"><span class="tut__selo">Ainda não</span> ' + esc(error) + "</p>";
    if (!next) {
      var pts = hand.result.points;
      var won = pts[0] ? "nós marcamos " + pts[0] : pts[1] ? "eles marcam " + pts[1] : "ninguém marcou";
      html += '<p class="tut__fim"><strong>Fim da mão: ' + won + ". Placar " + view.score[0] + " × " + view.score[1] + ".</strong></p>";
      if (lastHand) {
        html += '<p class="tut__fim"><strong>Lição concluída!</strong> ' + (this.nextLesson()
          ? "Siga para a próxima ou escolha outra na lista."
          : 'Você passou por todas as lições. Agora é jogar uma partida inteira contra os robôs: <a href="' +
            new URL("../jogar/", location.href).href + '">Jogar agora</a>.') + "</p>";
      }
    }
    html += '</div><div class="tut__nav">';
    var atStart = h === 0 && f === 0;
    html += '<button type="button" class="md-button" data-tutorial-voltar' + (atStart ? " disabled" : "") + ">Voltar</button>";
    if (next && !mine) html += '<button type="button" class="md-button md-button--primary" data-tutorial-seguir>Continuar</button>';
    if (!next && !lastHand) html += '<button type="button" class="md-button md-button--primary" data-tutorial-seguir>Próxima mão</button>';
    if (!next && lastHand && this.nextLesson()) {
      html += '<button type="button" class="md-button md-button--primary" data-tutorial-escolher="' + esc(this.nextLesson().id) +
        '">Próxima lição</button>';
    }
    html += '<button type="button" class="md-button" data-tutorial-recomecar>Recomeçar</button>' +
      '<button type="button" class="md-button" data-tutorial-menu-abrir>Lições</button></div>';
    return html;
  };

  /* After the learner's action: focus on what comes next (the cards or the call buttons when it
   * is their move, the hinted move after a refusal, else Continuar / Próxima mão / Próxima lição),
   * and the new text said once. Never on a page load: that would steal the reader's place. */
  Player.prototype.after = function (left, back) {
    var box = this.box, target = back ? box.querySelector("[data-tutorial-voltar]:not([disabled])") : null;
    if (!this.lesson) {
      target = (left && box.querySelector('[data-tutorial-escolher="' + left + '"]')) || box.querySelector("[data-tutorial-escolher]");
    } else {
      var next = this.lesson.hands[this.h].steps[this.f] || null;
      if (target) { /* Voltar again */ }
      else if (this.error) target = box.querySelector(".tut--dica");
      else if (next && next.prompt) {
        var cards = /^(play|cover|blind) /.test(next.action) && !(/^cover /.test(next.action) && !this.cover);
        target = box.querySelector((cards ? ".tut__mao" : ".tut__botoes") + " button:not([disabled])");
      }
      target = target || box.querySelector(".tut__nav .md-button--primary") || box.querySelector("[data-tutorial-menu-abrir]");
      var text = box.querySelector(".tut__texto");
      this.live.textContent = text ? text.innerText.replace(/\s+/g, " ").trim() : "";
    }
    if (target) window.trucoSite.focusOn(target);
  };

  Player.prototype.nextLesson = function () {
    var i = this.course.lessons.indexOf(this.lesson);
    return this.course.lessons[i + 1] || null;
  };

  Player.prototype.render = function () {
    if (!this.lesson) return this.showMenu();
    this.box.classList.add("tut--licao");
    this.box.innerHTML = this.markup(this.h, this.f, this.cover, this.error);
    this.scrollable();
    this.el.setAttribute("data-tutorial-passo", this.h + "." + this.f);
    if (this.finished()) this.el.setAttribute("data-tutorial-fim", "");
    else this.el.removeAttribute("data-tutorial-fim");
  };

  /* An explanation longer than its area scrolls there: the keyboard must be able to scroll it */
  Player.prototype.scrollable = function () {
    var text = this.box.querySelector(".tut__texto");
    if (!text) return;
    if (text.scrollHeight > text.clientHeight + 1) {
      text.setAttribute("tabindex", "0");
      text.setAttribute("role", "region");
      text.setAttribute("aria-label", "Explicação do passo");
    } else {
      text.removeAttribute("tabindex");
      text.removeAttribute("role");
      text.removeAttribute("aria-label");
    }
  };

  /* The box keeps the height of its tallest step, so nothing jumps while the learner plays. On a
   * phone the box is one screen, its text scrolling (truco.css), but never shorter than that
   * height (--tut-min), taken there with the text cut to three lines: a short screen scrolls the
   * page instead of cutting off the table or the buttons. */
  Player.prototype.fit = function () {
    if (!this.lesson || !this.box.clientWidth) return;
    var L = this.lesson, max = 0, m = this.measure;
    m.style.width = this.box.getBoundingClientRect().width + "px";
    for (var h = 0; h < L.hands.length; h++) {
      for (var f = 0; f <= L.hands[h].steps.length; f++) {
        var step = L.hands[h].steps[f];
        var err = step && step.prompt ? WRONG : "";
        m.innerHTML = this.markup(h, f, false, err);
        max = Math.max(max, m.getBoundingClientRect().height);
      }
    }
    m.innerHTML = "";
    this.box.style.minHeight = Math.ceil(max) + "px";
    this.box.style.setProperty("--tut-min", Math.ceil(max) + "px");
    this.scrollable();
  };

  Player.prototype.go = function (h, f) {
    this.h = h;
    this.f = f;
    this.cover = false;
    this.error = "";
    this.render();
    this.remember();
  };

  Player.prototype.onClick = function (event) {
    var t = event.target.closest("button");
    if (!t || !this.box.contains(t) || t.disabled) return;
    var pick = t.getAttribute("data-tutorial-escolher");
    if (pick) {
      var lesson = this.find(pick);
      var p = loadProgress();
      var at = p.feitas[pick] ? [0, 0] : this.position(lesson, p.passos[pick]);
      this.open(lesson, at[0], at[1]);
      /* a phone shows the lesson as one screen: its top just under the site's header */
      this.box.scrollIntoView({ block: window.matchMedia("(max-width: 30em)").matches ? "start" : "nearest" });
      return this.after();
    }
    if (t.hasAttribute("data-tutorial-menu-abrir")) {
      var left = this.lesson ? this.lesson.id : null;
      this.showMenu();
      return this.after(left);
    }
    if (!this.lesson) return;
    var back = t.hasAttribute("data-tutorial-voltar");
    this.act(t);
    this.after(null, back);
  };

  Player.prototype.act = function (t) {
    var next = this.lesson.hands[this.h].steps[this.f] || null;
    if (t.hasAttribute("data-tutorial-recomecar")) return this.go(0, 0);
    if (t.hasAttribute("data-tutorial-voltar")) {
      if (this.f > 0) return this.go(this.h, this.f - 1);
      if (this.h > 0) return this.go(this.h - 1, this.lesson.hands[this.h - 1].steps.length);
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
    this.error = WRONG;
    this.render();
  };

  function refitAll() {
    players = players.filter(function (p) { return p.el.isConnected; });
    players.forEach(function (p) { p.render(); p.fit(); });
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      refitAll();
      focusableScrolls();
    }, 150);
  });

  // ------------------------------------------------------------ shared with the page scripts

  /* A value kept in localStorage as JSON: null when missing or unreadable */
  function load(key) {
    try {
      var text = localStorage.getItem(key);
      return text ? JSON.parse(text) : null;
    } catch (e) {
      return null;
    }
  }

  /* null takes the value away; in private mode nothing is kept, the page goes on */
  function save(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* the value lasts while the page is open */ }
  }

  /* fn on every page shown: on `document$` under instant navigation, else once loaded */
  function onEveryPage(fn) {
    if (typeof window.document$ !== "undefined") window.document$.subscribe(fn);
    else document.addEventListener("DOMContentLoaded", fn);
  }

  /* One widget per page: new Make(el) on the element `selector` finds, made again only when
   * the page (and so the element) changed. */
  function mount(selector, Make) {
    var current = null;
    onEveryPage(function () {
      var el = document.querySelector(selector);
      if (!el) {
        current = null;
        return;
      }
      if (current && current.el === el) return;
      current = new Make(el);
    });
  }

  /* The page's own service worker (sw.js next to it, written by site/_hooks/jogo.py) */
  function registerOffline() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    var here = new URL(".", location.href).href;
    navigator.serviceWorker.register(here + "sw.js", { scope: here }).catch(function () { /* online only */ });
  }

  /* Focus moved by the page after an action: no jump when the element is in sight; out of
   * sight (a short screen, 200% zoom), the least scroll that shows it under the site's header,
   * for a keyboard only: a finger or a mouse stays where the person put the page. */
  var keyboard = false;
  document.addEventListener("keydown", function () { keyboard = true; }, true);
  document.addEventListener("pointerdown", function () { keyboard = false; }, true);

  function focusOn(target) {
    target.focus({ preventScroll: true });
    if (!keyboard) return;
    var r = target.getBoundingClientRect();
    var header = document.querySelector(".md-header");
    var top = header ? header.getBoundingClientRect().bottom : 0;
    if (r.top < top) window.scrollBy(0, r.top - top - 8);
    else if (r.bottom > window.innerHeight) window.scrollBy(0, r.bottom - window.innerHeight + 8);
  }

  window.trucoSite = { esc: esc, load: load, save: save, registerOffline: registerOffline, mount: mount, focusOn: focusOn };

  // ------------------------------------------------------------ boot

  function boot() {
    headerButton();
    document.querySelectorAll("[data-tutorial]").forEach(function (el) {
      if (!el.hasAttribute("data-tutorial-pronto")) new Player(el);
    });
    syncDeckButtons();
    /* a code block wider than a phone scrolls sideways: the keyboard must be able to reach it */
    document.querySelectorAll(".md-typeset pre > code:not([tabindex])").forEach(function (c) {
      c.setAttribute("tabindex", "0");
    });
    focusableScrolls();
  }

  /* the same for a table wider than the screen (a phone at 200% zoom): its box scrolls */
  function focusableScrolls() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (w) {
      if (w.scrollWidth > w.clientWidth + 1) w.setAttribute("tabindex", "0");
      else if (w.getAttribute("tabindex") === "0") w.removeAttribute("tabindex");
    });
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-imprimir]")) return window.print();
    var b = event.target.closest && event.target.closest("[data-baralho], [data-baralho-alternar]");
    if (!b || b === ROOT) return;
    if (b.hasAttribute("data-baralho-alternar")) {
      setDeck(ROOT.getAttribute("data-baralho") === "espanhol" ? "tradicional" : "espanhol");
    } else {
      setDeck(b.getAttribute("data-baralho"));
    }
  });

  onEveryPage(boot);
})();
