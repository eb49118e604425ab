/* Appended to the search worker's Portuguese support (lunr.pt.min.js) by site/_hooks/search.py.
 * People type on phones without accents: "mao", "tres". Every word is folded to its letters
 * without accents, in the index and in the query, so "mão" and "mao" find the same pages, both
 * ways. The query text itself is folded too (same length, so Material's highlighting offsets
 * still fit), which keeps "Ausente: mão" away when the page says "mao". Short words and stop
 * words are searched as below. */
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
  /* Material makes every query word a prefix ("pé" -> "pe*", which finds "pergunta", "pedir"...)
   * and lunr searches stop words too ("de*" finds "dez", "desligar"). So a stop word is left out
   * of the query, and a word of one or two letters is searched whole. Words the game needs that
   * fold onto a stop word ("ás" -> "as") are kept. */
  var KEEP = { as: true };
  var stop = lunr.pt.stopWordFilter;
  var isStop = function (word) {
    return !KEEP[word] && stop(new lunr.Token(word)) === undefined;
  };
  var clause = lunr.Query.prototype.clause;
  lunr.Query.prototype.clause = function (c) {
    var term = String(c.term || "");
    var base = term.replace(/^\*|\*$/g, "");
    if (base && isStop(base)) return this;
    if (/\*$/.test(term) && !/^\*/.test(term) && base.length <= 2) {
      c.term = base;
      c.usePipeline = true;
      c.wildcard = lunr.Query.wildcard.NONE;
    }
    return clause.call(this, c);
  };
  /* a query of stop words only ("de") has no clause left: it finds nothing, not every page */
  var query = lunr.Index.prototype.query;
  lunr.Index.prototype.query = function (fn) {
    var empty = false;
    var found = query.call(this, function (q) {
      fn.call(this, q);
      empty = q.clauses.length === 0;
    });
    return empty ? [] : found;
  };
  var Lexer = lunr.QueryLexer;
  lunr.QueryLexer = function (str) {
    Lexer.call(this, fold(String(str)));
  };
  lunr.QueryLexer.prototype = Lexer.prototype;
  for (var name in Lexer) if (Object.prototype.hasOwnProperty.call(Lexer, name)) lunr.QueryLexer[name] = Lexer[name];
})();
