/* The Mini App's card faces, drawn here as SVG (the project's own drawings, no font or
   image to load): the traditional deck (♣ ♥ ♠ ♦, Q J K) and the Spanish one with its own
   suits (oros, copas, espadas, bastos) and figures (sota 10, caballo 11, rey 12), R11.
   A card is the bot's card JSON (engine.browser.card_json); window.TrucoDeck.face(card,
   deck) returns the <svg> markup, deck being "tradicional" or "espanhol". */
(function () {
  "use strict";

  var W = 60, H = 84;

  /* suits, drawn in a 20×20 box centred on 0,0 */
  var SUITS = {
    h: '<path d="M0,9 C-3,6 -10,1.5 -10,-3.5 C-10,-7.5 -6.5,-9.5 -4,-9.5 C-2,-9.5 -0.5,-8 0,-6.5 C0.5,-8 2,-9.5 4,-9.5 C6.5,-9.5 10,-7.5 10,-3.5 C10,1.5 3,6 0,9 Z" fill="#c62828"/>',
    d: '<path d="M0,-10 L7.5,0 L0,10 L-7.5,0 Z" fill="#c62828"/>',
    s: '<path d="M0,-10 C-3,-6 -10,-2 -10,2.5 C-10,6 -7,8 -4.5,8 C-2.6,8 -1.2,7 -0.6,5.6 L-2.6,10 L2.6,10 L0.6,5.6 C1.2,7 2.6,8 4.5,8 C7,8 10,6 10,2.5 C10,-2 3,-6 0,-10 Z" fill="#1d1d1d"/>',
    c: '<g fill="#1d1d1d"><circle cx="0" cy="-4.8" r="4.6"/><circle cx="-5" cy="2" r="4.6"/><circle cx="5" cy="2" r="4.6"/>' +
      '<path d="M-0.9,1 L-3,10 L3,10 L0.9,1 Z"/></g>',
    oros: '<g><circle r="9.2" fill="#f2b705" stroke="#8d5d00" stroke-width="1.2"/><circle r="5.6" fill="none" stroke="#8d5d00" stroke-width="1"/>' +
      '<circle r="2" fill="#c62828"/></g>',
    copas: '<g stroke="#7f1111" stroke-width="0.9" stroke-linejoin="round"><path d="M-8,-9 L8,-9 C8,-2.5 4.5,1 1.6,2 L1.6,5.8 L5,8.4 L5,10 L-5,10 L-5,8.4 L-1.6,5.8 L-1.6,2 C-4.5,1 -8,-2.5 -8,-9 Z" fill="#d32f2f"/>' +
      '<path d="M-8,-9 L8,-9 L7.6,-6.6 L-7.6,-6.6 Z" fill="#f2b705"/></g>',
    espadas: '<g stroke="#0d2c54" stroke-width="0.8" stroke-linejoin="round"><path d="M0,-11 L2.1,-8 L2.1,4 L-2.1,4 L-2.1,-8 Z" fill="#90b4de"/>' +
      '<rect x="-6.5" y="4" width="13" height="2.2" rx="1" fill="#1f5fa8"/><rect x="-1.2" y="6.2" width="2.4" height="3.4" fill="#1f5fa8"/>' +
      '<circle cy="10.6" r="1.6" fill="#f2b705"/></g>',
    bastos: '<g stroke="#5d3a1a" stroke-width="0.8" stroke-linejoin="round"><path d="M-3.6,-10.4 C0,-12 4.6,-10 4,-6.4 L1.8,9.4 C1.6,10.8 -1.6,10.8 -1.8,9.4 L-4.7,-6 C-5.1,-8.4 -5,-9.9 -3.6,-10.4 Z" fill="#b9803f"/>' +
      '<ellipse cx="-3.6" cy="-2.6" rx="1.3" ry="0.9" fill="#7a4a1c"/><ellipse cx="2.6" cy="1.4" rx="1.2" ry="0.8" fill="#7a4a1c"/><ellipse cx="-1.9" cy="5.6" rx="1" ry="0.7" fill="#7a4a1c"/>' +
      '<path d="M1.2,-10.6 C3,-13.4 6.2,-13.6 7.4,-12.4 C5.6,-10.6 3.2,-10 1.2,-10.6 Z" fill="#2e7d32" stroke="#1b4d1e"/></g>'
  };
  var ESP = { c: "bastos", h: "copas", s: "espadas", d: "oros" };
  var ESP_COLOUR = { oros: "#9a6a00", copas: "#c62828", espadas: "#1f5fa8", bastos: "#2e7d32" };

  function suitOf(card, deck) {
    var s = card.code[1].toLowerCase();
    return deck === "espanhol" ? (card.naipe_esp || ESP[s]) : s;
  }

  function colourOf(suit) {
    if (ESP_COLOUR[suit]) return ESP_COLOUR[suit];
    return suit === "h" || suit === "d" ? "#c62828" : "#1d1d1d";
  }

  function pip(suit, x, y, scale, flip) {
    return '<g transform="translate(' + x + "," + y + ") scale(" + scale + ")" + (flip ? " rotate(180)" : "") + '">' + SUITS[suit] + "</g>";
  }

  /* where the pips of 1 to 7 go (x, y, upside down) */
  var L = 19, R = 41, M = 30;
  var PIPS = {
    1: [], 2: [[M, 25, 0], [M, 59, 1]], 3: [[M, 22, 0], [M, 42, 0], [M, 62, 1]],
    4: [[L, 25, 0], [R, 25, 0], [L, 59, 1], [R, 59, 1]],
    5: [[L, 24, 0], [R, 24, 0], [M, 42, 0], [L, 60, 1], [R, 60, 1]],
    6: [[L, 23, 0], [R, 23, 0], [L, 42, 0], [R, 42, 0], [L, 61, 1], [R, 61, 1]],
    7: [[L, 23, 0], [R, 23, 0], [M, 32.5, 0], [L, 42, 0], [R, 42, 0], [L, 61, 1], [R, 61, 1]]
  };

  /* the figures: a bust in the suit's colour and what it wears; the caballo is a horse */
  function figure(kind, colour, suit) {
    var out = '<rect x="11" y="14" width="38" height="56" rx="3" fill="' + colour + '" fill-opacity="0.08" stroke="' + colour + '" stroke-width="0.8"/>';
    var bust = '<path d="M17,66 C17,55 22,50 30,50 C38,50 43,55 43,66 Z" fill="' + colour + '"/>' +
      '<circle cx="30" cy="42" r="7" fill="#f6d7b0" stroke="' + colour + '" stroke-width="0.9"/>';
    if (kind === "horse") {
      out += '<path d="M22,66 L25,50 C20,48 17,44 18,40 L27,31 L28,25 L31,29 C38,29 43,36 42,46 L41,66 Z" fill="' + colour + '"/>' +
        '<circle cx="26" cy="37" r="1.3" fill="#fff"/><path d="M31,29 C35,33 37,40 36,48" fill="none" stroke="#f2b705" stroke-width="1.6"/>';
    } else {
      out += bust;
      if (kind === "crown") {
        out += '<path d="M22.5,35 L22.5,27 L26.2,31 L30,25 L33.8,31 L37.5,27 L37.5,35 Z" fill="#f2b705" stroke="#8d5d00" stroke-width="0.7"/>';
      } else if (kind === "tiara") {
        out += '<path d="M23,36 C25,31 35,31 37,36 Z" fill="#f2b705" stroke="#8d5d00" stroke-width="0.7"/><circle cx="30" cy="32" r="1.3" fill="#c62828"/>';
      } else {
        out += '<path d="M22,36 C22,30 38,30 38,36 Z" fill="' + colour + '"/><path d="M37,33 C41,28 44,27 46,25" fill="none" stroke="#f2b705" stroke-width="1.4"/>';
      }
    }
    return out + pip(suit, 42, 22, 0.5, false);
  }

  var FIGURES = { Q: "tiara", J: "cap", K: "crown", 10: "cap", 11: "horse", 12: "crown" };

  function face(card, deck) {
    var suit = suitOf(card, deck);
    var colour = colourOf(suit);
    var rank = deck === "espanhol" ? card.esp : card.trad;
    var count = { A: 1, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7 }[rank];
    var body = "";
    if (FIGURES[rank]) body = figure(FIGURES[rank], colour, suit);
    else if (count === 1) body = pip(suit, M, 42, 1.55, false);
    else PIPS[count].forEach(function (p) { body += pip(suit, p[0], p[1], 0.62, p[2] && deck !== "espanhol"); });
    var index = '<text x="7.5" y="14" text-anchor="middle" font-size="' + (rank.length > 1 ? 10.5 : 12.5) + '" font-weight="700" fill="' + colour + '">' + rank + "</text>" + pip(suit, 7.5, 22.5, 0.38, false);
    return '<svg class="face" viewBox="0 0 ' + W + " " + H + '" aria-hidden="true" focusable="false">' +
      '<rect x="0.5" y="0.5" width="' + (W - 1) + '" height="' + (H - 1) + '" rx="5" class="face__bg"/>' +
      (deck === "espanhol" ? '<rect x="3" y="3" width="' + (W - 6) + '" height="' + (H - 6) + '" rx="3" fill="none" stroke="' + colour + '" stroke-width="0.8"/>' : "") +
      body + index + '<g transform="rotate(180 30 42)">' + index + "</g></svg>";
  }

  function back() {
    return '<svg class="face" viewBox="0 0 ' + W + " " + H + '" aria-hidden="true" focusable="false">' +
      '<defs><pattern id="lozango" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect width="8" height="8" fill="#1a3a8a"/><rect width="4" height="4" fill="#2450b3"/></pattern></defs>' +
      '<rect x="0.5" y="0.5" width="' + (W - 1) + '" height="' + (H - 1) + '" rx="5" fill="#fff" stroke="#8a8577"/>' +
      '<rect x="4" y="4" width="' + (W - 8) + '" height="' + (H - 8) + '" rx="3" fill="url(#lozango)"/></svg>';
  }

  window.TrucoDeck = { face: face, back: back };
})();
