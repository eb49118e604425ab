/* Appended to the search worker's Portuguese support (lunr.pt.min.js) by site/_hooks/search.py.
 * People type on phones without accents: "mao", "tres". Every word is folded to its letters
 * without accents, in the index and in the query, so "mão" and "mao" find the same pages, both
 * ways. The query text itself is folded too (same length, so Material's highlighting offsets
 * still fit), which keeps "Ausente: mão" away when the page says "mao". */
(function () {
  "use strict";
  if (typeof lunr === "undefined" || !lunr.pt || lunr.pt.trucoDobra) return;
  var MARKS = /[\u0300-\u036f]/g;
  function fold(text) {
    return text.normalize("NFC").replace(/[^\u0000-\u007f]/g, function (c) {
      var base = c.normalize("NFD").replace(MARKS, "");
      return base.length === 1 ? base : c;
    });
  }
  var dobra = function (token) {
    return token.update(function (s) { return fold(s); });
  };
  lunr.Pipeline.registerFunction(dobra, "trucoDobra");
  var pt = lunr.pt;
  lunr.pt = function () {
    pt.apply(this, arguments);
    this.pipeline.before(lunr.pt.stemmer, dobra);
    this.searchPipeline.before(lunr.pt.stemmer, dobra);
  };
  for (var key in pt) if (Object.prototype.hasOwnProperty.call(pt, key)) lunr.pt[key] = pt[key];
  lunr.pt.trucoDobra = dobra;
  var Lexer = lunr.QueryLexer;
  lunr.QueryLexer = function (str) {
    Lexer.call(this, fold(String(str)));
  };
  lunr.QueryLexer.prototype = Lexer.prototype;
  for (var name in Lexer) if (Object.prototype.hasOwnProperty.call(Lexer, name)) lunr.QueryLexer[name] = Lexer[name];
})();
