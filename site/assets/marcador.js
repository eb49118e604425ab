/* The marcador: the score of a match played with a real deck, kept on the phone.
 *
 * Every number comes from the engine at build time (engine/marcador.py: site_config): the
 * values a hand may be worth in each variant and kind of hand, the mão de onze/dez threshold for
 * each target, and the warnings' words. This file only adds, caps at the target and undoes,
 * exactly as engine.marcador.Marcador does in Python. Saved in localStorage after every press; the page works
 * offline after the first visit (marcador/sw.js). */
(function () {
  "use strict";

  var KEY = "truco-marcador";

  var esc = window.trucoSite.esc;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k] !== undefined ? values[k] : ""; });
  }

  function load() {
    return window.trucoSite.load(KEY);
  }

  function store(value) {
    window.trucoSite.save(KEY, value);
  }

  function Marcador(el) {
    this.el = el;
    this.config = JSON.parse(el.getAttribute("data-marcador-config"));
    var saved = load();
    this.p = this.valid(saved) ? saved : this.fresh("paulista", this.config.target["default"], null, this.config.names);
    this.editing = false;
    /* the board is drawn anew on every press; the score is said by a region that stays */
    this.box = document.createElement("div");
    this.live = document.createElement("div");
    this.live.className = "sr-only";
    this.live.setAttribute("role", "status");
    this.live.setAttribute("data-marcador-falado", "");
    el.innerHTML = "";
    el.appendChild(this.box);
    el.appendChild(this.live);
    el.addEventListener("click", this.onClick.bind(this));
    el.addEventListener("change", this.onChange.bind(this));
    this.render();
    window.trucoSite.registerOffline();
  }

  Marcador.prototype.fresh = function (variant, target, ladder, names) {
    return { variant: variant, target: target, ladder: ladder, names: names.slice(), hands: [] };
  };

  Marcador.prototype.valid = function (p) {
    return p && this.rules(p.variant) && Array.isArray(p.hands) && Array.isArray(p.names) &&
      p.target >= this.config.target.min && p.target <= this.config.target.max;
  };

  Marcador.prototype.rules = function (variant) {
    return this.config.variants.filter(function (v) { return v.name === variant; })[0];
  };

  Marcador.prototype.score = function () {
    var s = [0, 0], target = this.p.target;
    this.p.hands.forEach(function (h) { s[h[0]] = Math.min(target, s[h[0]] + h[1]); });
    return s;
  };

  Marcador.prototype.winner = function () {
    var s = this.score();
    if (s[0] >= this.p.target) return 0;
    if (s[1] >= this.p.target) return 1;
    return null;
  };

  Marcador.prototype.kind = function () {
    var s = this.score(), t = this.rules(this.p.variant).thresholds[String(this.p.target)];
    if (s[0] >= t && s[1] >= t) return "iron";
    if (s[0] >= t || s[1] >= t) return "special";
    return "normal";
  };

  /* what the next hand may be worth to `team`: in a mão de onze/dez the team at the threshold
     only wins the special value (it runs: the other team scores), as Marcador.values says in Python */
  Marcador.prototype.values = function (team) {
    var r = this.rules(this.p.variant);
    if (this.winner() !== null) return [];
    var kind = this.kind();
    if (kind === "iron") return r.iron_values;
    if (kind === "special") {
      var t = r.thresholds[String(this.p.target)];
      return this.score()[team] >= t ? r.special_values.team : r.special_values.other;
    }
    var want = this.p.ladder ? this.p.ladder.join("-") : r.ladders[0].ladder.join("-");
    var ladder = r.ladders.filter(function (l) { return l.ladder.join("-") === want; })[0] || r.ladders[0];
    return ladder.normal;
  };

  /* gaudério's points game (R13.3, R13.4): what an envido may pay now (its worths and the
     falta, what the leader still needs) and what the flors pay, as Marcador.points_values says */
  Marcador.prototype.pointsValues = function (kind) {
    var r = this.rules(this.p.variant);
    if (this.winner() !== null || !r.envido_values || !r.envido_values.length) return [];
    if (kind === "flor") return r.flor_values;
    if (kind !== "envido") return [];
    var s = this.score(), falta = this.p.target - Math.max(s[0], s[1]);
    var values = r.envido_values.slice();
    if (values.indexOf(falta) < 0) values.push(falta);
    return values.sort(function (a, b) { return a - b; });
  };

  Marcador.prototype.warning = function () {
    var w = this.config.warnings, r = this.rules(this.p.variant), s = this.score();
    var winner = this.winner();
    if (winner !== null) return fill(w.winner, { winner: esc(this.p.names[winner]) });
    var t = r.thresholds[String(this.p.target)];
    var kind = this.kind();
    if (kind === "iron") return fill(w.iron, { threshold: t });
    if (kind === "special") {
      var team = s[0] >= t ? 0 : 1;
      return fill(w.special, {
        Special: r.special.charAt(0).toUpperCase() + r.special.slice(1),
        team: esc(this.p.names[team]), other: esc(this.p.names[1 - team]),
        special_value: r.special_value, hand_value: r.hand_value
      });
    }
    return "";
  };

  Marcador.prototype.save = function () {
    store(this.p);
    this.render();
  };

  Marcador.prototype.keyOf = function (el) {
    if (!el || !this.box.contains(el)) return null;
    if (el.hasAttribute("data-nome")) return '[data-nome="' + el.getAttribute("data-nome") + '"]';
    if (el.hasAttribute("data-ponto")) {
      return '[data-time="' + el.getAttribute("data-time") + '"][data-ponto="' + el.getAttribute("data-ponto") + '"]' +
        (el.hasAttribute("data-tipo") ? '[data-tipo="' + el.getAttribute("data-tipo") + '"]' : ":not([data-tipo])");
    }
    var plain = ["data-desfazer", "data-nova-partida", "data-mesa"];
    for (var i = 0; i < plain.length; i++) if (el.hasAttribute(plain[i])) return "[" + plain[i] + "]";
    if (el.matches(".marcador__log > summary")) return ".marcador__log > summary";
    return null;
  };

  /* After a press: the new score said once, and focus on the next thing to press (the same +N of
     the same team when it is still offered, else that team's first; Nova partida at the end). */
  Marcador.prototype.after = function (selector) {
    var s = this.score(), p = this.p;
    var said = p.names[0] + " " + s[0] + ", " + p.names[1] + " " + s[1] + ".";
    var warning = this.box.querySelector("[data-marcador-aviso]");
    this.live.textContent = said + (warning ? " " + warning.textContent : "");
    var target = null;
    for (var i = 0; i < selector.length && !target; i++) target = this.box.querySelector(selector[i]);
    if (target) window.trucoSite.focusOn(target);
  };

  Marcador.prototype.onClick = function (event) {
    var b = event.target.closest("button");
    if (!b || !this.el.contains(b)) return;
    if (b.hasAttribute("data-ponto")) {
      var team = Number(b.getAttribute("data-time")), points = Number(b.getAttribute("data-ponto"));
      var tipo = b.getAttribute("data-tipo");
      if ((tipo ? this.pointsValues(tipo) : this.values(team)).indexOf(points) < 0) return;
      this.p.hands.push(tipo ? [team, points, tipo] : [team, points]);
      this.save();
      var same = tipo ? '[data-tipo="' + tipo + '"]' : ":not([data-tipo])";
      this.after(['[data-time="' + team + '"][data-ponto="' + points + '"]' + same, '[data-time="' + team + '"][data-ponto]',
        "[data-ponto]", "[data-nova-partida]"]);
    } else if (b.hasAttribute("data-desfazer")) {
      this.p.hands.pop();
      this.save();
      this.after(["[data-desfazer]:not([disabled])", "[data-ponto]"]);
    } else if (b.hasAttribute("data-nova-partida")) {
      if (this.p.hands.length && this.winner() === null && !window.confirm("Zerar o placar e começar outra partida?")) return;
      this.p.hands = [];
      this.save();
      this.after(["[data-ponto]"]);
    } else if (b.hasAttribute("data-mesa")) {
      this.editing = !this.editing;
      this.render();
      window.trucoSite.focusOn(this.box.querySelector(this.editing ? '[data-marcador-mesa] input:checked' : "[data-mesa]"));
    }
  };

  Marcador.prototype.onChange = function (event) {
    var t = event.target;
    if (t.hasAttribute("data-nome")) {
      var team = Number(t.getAttribute("data-nome"));
      var name = t.value.replace(/\s+/g, " ").trim().slice(0, this.config.max_name);
      this.p.names[team] = name || this.config.names[team];
      store(this.p);
      /* a name changes as focus leaves its box: the board is drawn again once focus has landed,
         and focus stays where the person sent it */
      var self = this;
      setTimeout(function () {
        var key = self.keyOf(document.activeElement);
        self.render();
        var again = key && self.box.querySelector(key);
        if (again) again.focus({ preventScroll: true });
      }, 0);
      return;
    }
    if (!t.closest("[data-marcador-mesa]")) return;
    var form = this.el.querySelector("[data-marcador-mesa]");
    var variant = form.querySelector('[name="variant"]:checked').value;
    var target = parseInt(form.querySelector('[name="target"]').value, 10);
    var ladderInput = form.querySelector('[name="ladder"]:checked');
    var error = form.querySelector("[data-marcador-erro]");
    var r = this.rules(variant);
    /* another variant starts at its own default (gaudério: 24) */
    if (t.name === "variant" && r.default_target) target = r.default_target;
    var low = r.min_target || this.config.target.min;
    if (!(target >= low && target <= this.config.target.max)) {
      error.textContent = "A partida vai de " + low + " a " + this.config.target.max + " pontos.";
      return;
    }
    var ladder = null;
    if (t.name !== "variant" && ladderInput && r.ladders.length > 1) {
      var chosen = ladderInput.value;
      if (chosen !== r.ladders[0].ladder.join("-")) ladder = chosen.split("-").map(Number);
    }
    var same = variant === this.p.variant && target === this.p.target &&
      String(ladder) === String(this.p.ladder);
    if (same) return;
    if (this.p.hands.length && !window.confirm("Mudar a mesa zera o placar. Continuar?")) {
      this.render();
      return;
    }
    this.p = this.fresh(variant, target, ladder, this.p.names);
    var name = t.name, value = t.value;
    this.save();
    var again = this.box.querySelector('[data-marcador-mesa] [name="' + name + '"]' + (t.type === "radio" ? '[value="' + value + '"]' : ""));
    if (again) window.trucoSite.focusOn(again);
  };

  Marcador.prototype.settingsHtml = function () {
    var p = this.p, c = this.config, r = this.rules(p.variant);
    var out = '<form class="marcador__mesa" data-marcador-mesa onsubmit="return false"><fieldset><legend>Variante</legend>' +
      c.variants.map(function (v) {
        return '<label class="jogo__opcao"><input type="radio" name="variant" value="' + v.name + '"' +
          (v.name === p.variant ? " checked" : "") + "> " + esc(v.title) + "</label>";
      }).join("") + "</fieldset>";
    if (r.ladders.length > 1) {
      var current = p.ladder ? p.ladder.join("-") : r.ladders[0].ladder.join("-");
      out += "<fieldset><legend>Escada do truco</legend>" + r.ladders.map(function (l) {
        var code = l.ladder.join("-");
        return '<label class="jogo__opcao"><input type="radio" name="ladder" value="' + code + '"' +
          (code === current ? " checked" : "") + "> " + code + "</label>";
      }).join("") + "</fieldset>";
    }
    out += '<fieldset><legend>Partida</legend><label class="jogo__opcao">até <input type="number" name="target" min="' +
      c.target.min + '" max="' + c.target.max + '" value="' + p.target + '" inputmode="numeric"> pontos</label></fieldset>' +
      '<p class="jogo__erro" role="alert" data-marcador-erro></p></form>';
    return out;
  };

  /* gaudério: a row of envido values and one of flor values under each team's hand values */
  Marcador.prototype.pointsHtml = function (team) {
    var self = this;
    return [["envido", "Envido"], ["flor", "Flor"]].map(function (k) {
      var values = self.pointsValues(k[0]);
      if (!values.length) return "";
      return '<div class="marcador__botoes marcador__botoes--' + k[0] + '" role="group" aria-label="' + k[1] + " para " +
        esc(self.p.names[team]) + '"><span class="marcador__tipo">' + k[1] + "</span>" + values.map(function (v) {
          return '<button type="button" class="marcador__ponto" data-time="' + team + '" data-tipo="' + k[0] +
            '" data-ponto="' + v + '" aria-label="+' + v + " de " + k[0] + '">+' + v + "</button>";
        }).join("") + "</div>";
    }).join("");
  };

  Marcador.prototype.render = function () {
    var p = this.p, self = this, s = this.score(), r = this.rules(p.variant);
    var winner = this.winner();
    this.el.setAttribute("data-marcador-placar", s.join("-"));
    this.el.setAttribute("data-marcador-tipo", winner !== null ? "fim" : this.kind());
    var teams = [0, 1].map(function (team) {
      var buttons = self.values(team).map(function (v) {
        return '<button type="button" class="marcador__ponto" data-time="' + team + '" data-ponto="' + v + '">+' + v + "</button>";
      }).join("");
      return '<section class="marcador__time' + (winner === team ? " marcador__time--venceu" : "") + '" data-marcador-time="' + team + '">' +
        '<input class="marcador__nome" data-nome="' + team + '" value="' + esc(p.names[team]) + '" maxlength="' +
        self.config.max_name + '" aria-label="Nome do time ' + (team + 1) + '">' +
        '<div class="marcador__pontos" data-pontos="' + team + '">' + s[team] + "</div>" +
        '<div class="marcador__botoes">' + buttons + "</div>" + self.pointsHtml(team) + "</section>";
    }).join("");
    var warning = this.warning();
    var log = p.hands.map(function (h, i) {
      var partial = [0, 0];
      for (var j = 0; j <= i; j++) partial[p.hands[j][0]] = Math.min(p.target, partial[p.hands[j][0]] + p.hands[j][1]);
      return "<li>" + esc(p.names[h[0]]) + " +" + h[1] + (h[2] ? " (" + esc(h[2]) + ")" : "") + " <small>(" + partial[0] + " × " + partial[1] + ")</small></li>";
    }).reverse().join("");
    this.box.innerHTML =
      '<p class="marcador__regra">' + esc(r.title) + " · até " + p.target +
      ' <button type="button" class="md-button marcador__mudar" data-mesa aria-expanded="' + this.editing + '">Mudar a mesa</button></p>' +
      (this.editing ? this.settingsHtml() : "") +
      '<div class="marcador__placar">' + teams + "</div>" +
      (warning ? '<p class="marcador__aviso marcador__aviso--' + this.el.getAttribute("data-marcador-tipo") + '" data-marcador-aviso>' + warning + "</p>" : "") +
      '<p class="marcador__acoes"><button type="button" class="md-button" data-desfazer' + (p.hands.length ? "" : " disabled") +
      '>↶ Desfazer</button> <button type="button" class="md-button" data-nova-partida>Nova partida</button></p>' +
      (log ? '<details class="marcador__log" open><summary>Mãos (' + p.hands.length + ')</summary><ol reversed>' + log + "</ol></details>" : "");
  };

  window.trucoSite.mount("[data-marcador]", Marcador);
})();
