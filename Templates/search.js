// Daybook search (CONTRACT §9, §10): reads the index under search/ that the build writes
// (SearchIndex.swift says its files), a few files a query, no framework.
//
// `fold` and `tokens` repeat SearchText.swift rule for rule: a word found by one side is a word
// of the other. A query is a list of units, each of which every result must hold: a word (the
// last one also as the start of longer words), a "quoted phrase", or a run of Chinese, Japanese
// or Korean characters (its bigrams, next to each other). `-word` leaves results out; `#tag` and
// `@id` put the hashtag or the person first, then their posts. Results come in tiers, each
// fetched only when the ones before do not fill the list: exact words, then the last word as a
// prefix, then words one edit away (five letters or more). Within a tier, people, hashtags and
// places come first, then the rest by BM25.
//
// Its words are the page's, in the site's language (CONTRACT §11): the JSON object in the
// .search element's `data-words`, a string a key, or for a count an object of CLDR plural
// categories (zero, one, two, few, many, other) whose `{count}` is the number. The plural form
// is chosen by Intl.PluralRules, the number and a result's day written by Intl, for the
// language of <html lang>. A key the page does not give is said in English.
(function () {
  "use strict";
  var root = document.querySelector(".search");
  if (!root) return;
  var config = JSON.parse(root.getAttribute("data-configuration"));
  var base = root.getAttribute("data-index");
  // The site's root, where a card's slug and thumbnail are found: the index is its `search/`.
  var siteRoot = base.slice(0, base.length - "search/".length);
  var form = root.querySelector("form");
  var input = document.getElementById("search-query");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var more = document.getElementById("search-more");
  var filterNames = ["user", "tag", "place", "year"];
  var filters = {};
  filterNames.forEach(function (name) { filters[name] = document.getElementById("search-" + name); });
  // Results shown at first, and added by "More results": a first one-word query fetches one
  // postings file and the card files of these (CONTRACT §10: 256 KiB at most).
  var shown = 4;
  var groupEnd = config.people + config.tags + config.places;

  // ---- Text, as SearchText.swift ----

  function fold(text) {
    return text.normalize("NFD").replace(/\p{Mn}/gu, "").normalize("NFC").toLowerCase().replace(/ς/g, "σ");
  }

  var wordCharacter = /[\p{L}\p{M}\p{N}_]/u;

  function isCJK(v) {
    return (v >= 0x1100 && v <= 0x11FF) || (v >= 0x2E80 && v <= 0x2FDF) || v === 0x3005 || v === 0x3007 ||
      (v >= 0x3021 && v <= 0x3029) || (v >= 0x3041 && v <= 0x309F) || (v >= 0x30A0 && v <= 0x30FF) ||
      (v >= 0x3130 && v <= 0x318F) || (v >= 0x31F0 && v <= 0x31FF) || (v >= 0x3400 && v <= 0x4DBF) ||
      (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0xAC00 && v <= 0xD7AF) || (v >= 0xF900 && v <= 0xFAFF) ||
      (v >= 0xFF66 && v <= 0xFF9F) || (v >= 0x20000 && v <= 0x3134F);
  }

  // Words and CJK bigrams of already folded text; each with whether it came from a CJK run.
  function split(folded) {
    var out = [];
    var word = "";
    var cjk = [];
    var apostrophe = false;
    function flushWord() { if (word) out.push({ text: word, cjk: false }); word = ""; apostrophe = false; }
    function flushCJK() {
      if (cjk.length === 1) out.push({ text: cjk[0], cjk: true });
      for (var i = 0; i + 1 < cjk.length; i++) out.push({ text: cjk[i] + cjk[i + 1], cjk: true });
      cjk = [];
    }
    for (var ch of folded) {
      if (isCJK(ch.codePointAt(0))) { flushWord(); cjk.push(ch); }
      else if (wordCharacter.test(ch)) { flushCJK(); apostrophe = false; word += ch; }
      else if ((ch === "'" || ch === "\u2019") && word && !apostrophe) { apostrophe = true; }
      else { flushWord(); flushCJK(); }
    }
    flushWord();
    flushCJK();
    return out;
  }

  function tokens(text) { return split(fold(text)).map(function (t) { return t.text; }); }

  // 32-bit FNV-1a of the UTF-8 bytes, as SearchText.hash.
  function hash(text) {
    var h = 0x811c9dc5;
    var bytes = new TextEncoder().encode(text);
    for (var i = 0; i < bytes.length; i++) { h ^= bytes[i]; h = Math.imul(h, 0x01000193); }
    return h >>> 0;
  }

  function group(word) { return Array.from(word).slice(0, 2).join(""); }

  // CONTRACT §4's slug, for a place typed by name: NFC lower case, word characters kept, other runs one "-".
  function slug(text) {
    return text.normalize("NFC").toLowerCase().split(/[^\p{L}\p{M}\p{Nd}_]+/u).filter(Boolean).join("-");
  }

  // ---- Files ----

  var files = {};
  function load(path) {
    if (!files[path]) {
      files[path] = fetch(base + path).then(function (response) {
        if (!response.ok) throw new Error(path);
        return response.json();
      }).catch(function (error) {
        // Not kept: a search after the network is back fetches the file again.
        delete files[path];
        throw error;
      });
    }
    return files[path];
  }
  function lexiconFile(text) { return load("l/" + (hash(group(text)) % config.lexicon) + ".json"); }
  function has(file, word) { return Object.prototype.hasOwnProperty.call(file, word); }

  // A word's or key's results: {found: id -> how many times it holds the word, total, bound}.
  // A big word's postings entry holds only its best results (`top`, ranked as `before` ranks)
  // and its count (`n`): enough for a query of that word alone, whose results come in that
  // order. Then `bound` is the last of them, and the results after it are not known. `whole`
  // fetches the rest too: one big file for each segment of the results.
  function postingsOf(word, whole) {
    return load("p/" + (hash(word) % config.postings) + ".json").then(function (file) {
      var entry = has(file, word) ? file[word] : [];
      if (Array.isArray(entry)) { var found = decodeWord(entry); return { found: found, total: found.size, bound: null }; }
      if (!whole) return { found: decodeTop(entry.top), total: entry.n, bound: lastOf(entry.top) };
      var bucket = hash(word) % config.big, parts = [];
      for (var s = 0; s < config.segments; s++) parts.push(load("b/" + (bucket * config.segments + s) + ".json"));
      return Promise.all(parts).then(function (pieces) {
        var all = new Map();
        pieces.forEach(function (piece) { if (has(piece, word)) decodeWord(piece[word], all); });
        return { found: all, total: entry.n, bound: null };
      });
    });
  }
  // Results before the journal entries, `cardsPerFile` a file; then the entries, whose cards
  // are larger, `entryCardsPerFile` a file (SearchIndex.Layout.cardFile).
  var entryStart = config.results - config.entries, postCardFiles = Math.ceil(entryStart / config.cardsPerFile);
  function card(id) {
    var file, at;
    if (id < entryStart) {
      file = Math.floor(id / config.cardsPerFile);
      at = id % config.cardsPerFile;
    } else {
      file = postCardFiles + Math.floor((id - entryStart) / config.entryCardsPerFile);
      at = (id - entryStart) % config.entryCardsPerFile;
    }
    return load("d/" + file + ".json").then(function (cards) { return cards[at]; });
  }

  // A word's results: id -> how many times it holds the word. Each result is its distance from
  // the one before; a negative number after it is its count, when over one.
  function decodeWord(entries, into) {
    var found = into || new Map();
    var id = 0;
    for (var i = 0; i < entries.length; i++) {
      if (entries[i] < 0) { found.set(id, -entries[i]); continue; }
      id += entries[i];
      found.set(id, 1);
    }
    return found;
  }

  // A big word's best results, each id whole, in their order.
  function decodeTop(entries) {
    var found = new Map();
    for (var i = 0; i < entries.length; i++) {
      if (entries[i] < 0) found.set(entries[i - 1], -entries[i]); else found.set(entries[i], 1);
    }
    return found;
  }

  // The last of a big word's best results: {id, count}.
  function lastOf(entries) {
    var end = entries.length - 1;
    return entries[end] < 0 ? { id: entries[end - 1], count: -entries[end] } : { id: entries[end], count: 1 };
  }

  // ---- Words one edit away (Damerau: added, removed, replaced, or two neighbours swapped) ----

  function oneEdit(a, b) {
    a = Array.from(a); b = Array.from(b);
    if (Math.abs(a.length - b.length) > 1 || a.join("") === b.join("")) return false;
    var i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    var restA = a.slice(i + 1).join(""), restB = b.slice(i + 1).join("");
    if (a.length === b.length) {
      if (restA === restB) return true;
      return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2).join("") === b.slice(i + 2).join("");
    }
    return a.length > b.length ? restA === b.slice(i).join("") : a.slice(i).join("") === restB;
  }

  function withoutLetter(word, at) { var s = Array.from(word); s.splice(at, 1); return s.join(""); }

  // Words of the site one edit away from `word`: from the files of its own first two letters
  // (edits after them), and the "near" keys that find edits of the first two.
  function nearKeys(word) { return [word, withoutLetter(word, 0), withoutLetter(word, 1)]; }

  // The lexicon files that hold a word's near words: its own, and those of its near keys and of
  // its first two letters swapped.
  function nearFiles(word) {
    var letters = Array.from(word);
    return nearKeys(word).concat([letters[1] + letters[0] + letters.slice(2).join("")]).map(lexiconFile);
  }

  function nearWords(word) {
    var keys = nearKeys(word);
    return Promise.all(nearFiles(word)).then(function (lexicons) {
      var found = new Map();
      lexicons.forEach(function (lexicon) {
        Object.keys(lexicon.words).forEach(function (candidate) {
          if (oneEdit(word, candidate)) found.set(candidate, lexicon.words[candidate]);
        });
        keys.forEach(function (key) {
          (lexicon.near[key] || []).forEach(function (candidate) {
            if (oneEdit(word, candidate)) found.set(candidate, 1);
          });
        });
      });
      // The most common few: every one is another postings file to fetch.
      return Array.from(found.keys()).sort(function (a, b) { return (found.get(b) || 0) - (found.get(a) || 0); }).slice(0, 3);
    });
  }

  function prefixWords(prefix) {
    return lexiconFile(prefix).then(function (lexicon) {
      return Object.keys(lexicon.words).filter(function (word) { return word !== prefix && word.indexOf(prefix) === 0; })
        .sort(function (a, b) { return lexicon.words[b] - lexicon.words[a] || (a < b ? -1 : 1); }).slice(0, 5);
    });
  }

  // ---- Queries ----

  // Units every result must hold, words to leave out, and a leading #tag or @id.
  function parse(text) {
    var query = { units: [], without: [], lead: null };
    var lead = /^([#@])([^\s#@]+)/u.exec(text.trim());
    if (lead) {
      query.lead = { kind: lead[1], name: lead[2], typing: text.trim() === lead[0] && !/\s$/.test(text) };
      text = text.trim().slice(lead[0].length);
    }
    var pattern = /"([^"]*)"?|(\S+)/g, match, last = null;
    while ((match = pattern.exec(text))) {
      if (match[1] !== undefined) {
        var phrase = tokens(match[1]);
        if (phrase.length) query.units.push({ words: phrase, phrase: true });
        last = null;
        continue;
      }
      var chunk = match[2];
      if (chunk.charAt(0) === "-" && chunk.length > 1) { query.without = query.without.concat(tokens(chunk.slice(1))); last = null; continue; }
      split(fold(chunk)).forEach(function (token, index, all) {
        if (token.cjk && all.length > 1 && all.every(function (t) { return t.cjk; })) {
          if (index === 0) query.units.push({ words: all.map(function (t) { return t.text; }), phrase: true });
          return;
        }
        last = { words: [token.text], phrase: false, cjk: token.cjk };
        query.units.push(last);
      });
    }
    // The last word typed may be the start of a longer one, while the query is still being typed.
    if (last && !/\s$/.test(text) && Array.from(last.words[0]).length >= 2 && !last.cjk) last.prefix = true;
    return query;
  }

  // BM25 without length normalisation (b = 0): an entry holds no length, so that an edit
  // rewrites only the entries of the words it adds or drops. Texts here are short.
  function bm25(count, results) {
    var k1 = 1.2;
    return Math.log(1 + (config.results - results + 0.5) / (results + 0.5)) * count * (k1 + 1) / (count + k1);
  }

  // The order of results within a tier: people, hashtags and places first, then by score,
  // then the newest. A big word's best results (SearchIndex.best) are ranked the same way.
  function before(a, b) {
    var ga = a.id < groupEnd ? 0 : 1, gb = b.id < groupEnd ? 0 : 1;
    return ga - gb || b.score - a.score || b.id - a.id;
  }

  // A unit's results with their scores, from the given variant words (prefix or near words
  // added): {scores, bound}. A phrase's results hold all its words; their order is checked on
  // the cards (`holds`). Unless `whole`, a big word gives its best results alone, and `bound` is
  // the first-ranked of their last ones: a result ranked after it may be missing.
  function unitResults(unit, variants, whole) {
    if (unit.phrase) {
      return Promise.all(unit.words.map(function (word) { return postingsOf(word, true); })).then(function (lists) {
        return { scores: intersect(lists.map(function (list) {
          var scores = new Map();
          list.found.forEach(function (count, id) { scores.set(id, bm25(count, list.total)); });
          return scores;
        })), bound: null };
      });
    }
    return Promise.all(variants.map(function (word) { return postingsOf(word, whole); })).then(function (lists) {
      var out = new Map(), bound = null;
      lists.forEach(function (list) {
        list.found.forEach(function (count, id) {
          var score = bm25(count, list.total);
          if (!out.has(id) || out.get(id) < score) out.set(id, score);
        });
        if (list.bound) {
          var last = { id: list.bound.id, score: bm25(list.bound.count, list.total) };
          if (!bound || before(last, bound) < 0) bound = last;
        }
      });
      return { scores: out, bound: bound };
    });
  }

  // Whether a card's words hold each phrase of the query, its words next to each other in order.
  function holds(query, data) {
    var phrases = query.units.filter(function (u) { return u.phrase; });
    if (!phrases.length) return true;
    var words = tokens(data[2] + " " + data[3]);
    return phrases.every(function (unit) {
      for (var i = 0; i + unit.words.length <= words.length; i++) {
        if (unit.words.every(function (w, j) { return words[i + j] === w; })) return true;
      }
      return false;
    });
  }

  function intersect(maps) {
    if (!maps.length) return null;
    var out = new Map();
    maps[0].forEach(function (score, id) {
      var total = score;
      for (var i = 1; i < maps.length; i++) {
        if (!maps[i].has(id)) return;
        total += maps[i].get(id);
      }
      out.set(id, total);
    });
    return out;
  }

  // A filter key's results, posts and comments apart: posts hold `#tag`; comments on them `&#tag`.
  function keySet(key) {
    return Promise.all([postingsOf(key, true), postingsOf("&" + key, true)]).then(function (lists) {
      return { posts: new Set(lists[0].found.keys()), comments: new Set(lists[1].found.keys()) };
    });
  }

  // The filter keys set (`@user`, `#tag`, `~place`), and `^year` for a year.
  function activeFilters() {
    var keys = [];
    var user = filters.user.value.trim().replace(/^@/, ""), tag = filters.tag.value.trim().replace(/^#/, "");
    var place = filters.place.value.trim(), year = filters.year.value.trim();
    if (user) keys.push("@" + fold(user));
    if (tag) keys.push("#" + fold(tag));
    if (place) keys.push("~" + slug(place));
    if (year) keys.push("^" + year);
    return keys;
  }

  // A year's posts and their comments are a run of ids (SearchIndex.years); other keys have postings.
  function filterSet(key) {
    if (key.charAt(0) !== "^") return keySet(key).then(function (set) { return new Set(Array.from(set.posts).concat(Array.from(set.comments))); });
    var run = (config.years || {})[key.slice(1)], ids = new Set();
    if (run) for (var id = run[0]; id <= run[1]; id++) ids.add(id);
    return Promise.resolve(ids);
  }

  // Every result of `query`, tier by tier: [{id, score, tier}], best first, no id twice.
  function run(query) {
    var keys = activeFilters();
    var allowed = keys.length ? Promise.all(keys.map(filterSet)).then(function (sets) {
      var ids = null;
      sets.forEach(function (both) {
        ids = ids ? new Set(Array.from(ids).filter(function (id) { return both.has(id); })) : both;
      });
      return ids;
    }) : Promise.resolve(null);
    // The lexicon file of the word being typed, fetched with the first round: its longer words
    // are the next tier. (Near words' files are fetched only when the exact ones fall short.)
    query.units.forEach(function (unit) { if (unit.prefix) lexiconFile(unit.words[0]); });
    // A word of five letters or more alone: the files of its near words come in the first round
    // too, so that when the site holds it rarely (or not at all, a typo) the near words'
    // results are on the page in the third.
    var only = query.units.length === 1 && !query.lead ? query.units[0] : null;
    if (only && !only.phrase && !only.cjk && Array.from(only.words[0]).length >= 5) nearFiles(only.words[0]);
    var without = Promise.all(query.without.map(function (word) { return postingsOf(word, true); })).then(function (lists) {
      var out = new Set();
      lists.forEach(function (list) { list.found.forEach(function (_, id) { out.add(id); }); });
      return out;
    });
    var lead = query.lead ? leadResults(query.lead, !query.units.length) : Promise.resolve({ ids: [], rest: null });
    // A query of one word may read big words' best results alone (`bound`); several words meet
    // in whole lists.
    function tier(variantsOf, whole) {
      var alone = !whole && query.units.length === 1;
      return Promise.all(query.units.map(function (unit) {
        return variantsOf(unit).then(function (variants) { return unitResults(unit, variants, !alone); });
      })).then(function (parts) {
        return { scores: intersect(parts.map(function (part) { return part.scores; })), bound: parts.length === 1 ? parts[0].bound : null };
      });
    }
    var exact = function (unit) { return Promise.resolve(unit.words); };
    var prefixed = function (unit) {
      return unit.prefix ? prefixWords(unit.words[0]).then(function (words) { return unit.words.concat(words); }) : exact(unit);
    };
    var near = function (unit) {
      return prefixed(unit).then(function (words) {
        if (unit.phrase || unit.cjk || Array.from(unit.words[0]).length < 5) return words;
        return nearWords(unit.words[0]).then(function (found) { return words.concat(found); });
      });
    };
    return Promise.all([allowed, without, lead]).then(function (parts) {
      var allowedIds = parts[0], withoutIds = parts[1], leading = parts[2];
      var seen = new Set(), ordered = [], pending = [];
      function keep(id) {
        if (seen.has(id) || withoutIds.has(id)) return false;
        if (allowedIds && !allowedIds.has(id)) return false;
        return true;
      }
      function addLead(ids) {
        ids.forEach(function (id) { if (!seen.has(id)) { seen.add(id); ordered.push({ id: id, score: 0, tier: 0 }); } });
      }
      addLead(leading.ids);
      if (leading.rest) pending.push(function () { return leading.rest().then(addLead); });
      // A tier's results after those before, in order. Past a big word's bound some may be
      // missing: they come, in order, when the tier is read whole (next in `pending`).
      function add(result, number) {
        if (!result.scores) return;
        var found = [];
        result.scores.forEach(function (score, id) { if (keep(id)) found.push({ id: id, score: score, tier: number }); });
        found.sort(before);
        if (result.bound) found = found.filter(function (r) { return before(r, result.bound) <= 0; });
        found.forEach(function (r) { seen.add(r.id); ordered.push(r); });
      }
      function later(variantsOf, number) {
        return function () {
          return tier(variantsOf, false).then(function (result) {
            add(result, number);
            if (result.bound) pending.unshift(function () { return tier(variantsOf, true).then(function (all) { add(all, number); }); });
          });
        };
      }
      if (!query.units.length) {
        // A lead or filters alone: their posts and comments, newest first.
        if (!query.lead && allowedIds) {
          var ids = Array.from(allowedIds).filter(keep).sort(function (a, b) { return b - a; });
          ids.forEach(function (id) { ordered.push({ id: id, score: 0, tier: 0 }); });
        }
        return { results: ordered, pending: pending };
      }
      // Later tiers are run only when asked for (`fill`).
      return later(exact, 0)().then(function () {
        pending.push(later(prefixed, 1), later(near, 2));
        return { results: ordered, pending: pending };
      });
    });
  }

  // `#tag`: the hashtag, then its posts, newest first; `@id`: the person, then their posts.
  // While it is still being typed (nothing after it), the hashtags and ids it begins count too:
  // all of them first, then all their posts, newest first. {ids, rest}: when `alone` (nothing
  // else in the query), a big key gives its newest posts alone, and `rest` fetches the others.
  function leadResults(lead, alone) {
    var name = fold(lead.name);
    var word = tokens(lead.name);
    var names = lead.typing && word.length === 1 && Array.from(name).length >= 2
      ? prefixWords(name).then(function (more) { return [name].concat(more); }) : Promise.resolve([name]);
    return names.then(function (all) {
      return Promise.all(all.map(function (one) { return leadOf(lead.kind, one, !alone); })).then(function (found) {
        var selves = [], posts = new Set(), bound = -1;
        found.forEach(function (part) {
          part.self.forEach(function (id) { if (selves.indexOf(id) === -1) selves.push(id); });
          part.posts.found.forEach(function (_, id) { posts.add(id); });
          if (part.posts.bound) bound = Math.max(bound, part.posts.bound.id);
        });
        // Newest first; past the newest bound, posts of a big key may be missing.
        var sure = Array.from(posts).filter(function (id) { return id >= bound; }).sort(function (a, b) { return b - a; });
        var rest = bound < 0 ? null : function () {
          return Promise.all(all.map(function (one) { return postingsOf(lead.kind + one, true); })).then(function (lists) {
            var more = new Set();
            lists.forEach(function (list) { list.found.forEach(function (_, id) { if (id < bound) more.add(id); }); });
            return Array.from(more).sort(function (a, b) { return b - a; });
          });
        };
        return { ids: selves.concat(sure), rest: rest };
      });
    });
  }

  // One hashtag's or person's own result (matched on its name or id, whole) and posts.
  function leadOf(kind, name, whole) {
    var from = kind === "#" ? config.people : 0, to = kind === "#" ? config.people + config.tags : config.people;
    // A big word's best results start with the people, hashtags and places that hold it: read
    // whole only when those fill them.
    var named = postingsOf(name, false).then(function (list) { return list.bound && list.bound.id < groupEnd ? postingsOf(name, true) : list; });
    var self = named.then(function (list) {
      var ids = Array.from(list.found.keys()).filter(function (id) { return id >= from && id < to; });
      return Promise.all(ids.map(card)).then(function (cards) {
        return ids.filter(function (id, i) {
          var c = cards[i];
          return kind === "#" ? fold(c[2]) === name : c[1] === slug(name);
        });
      });
    });
    return Promise.all([self, postingsOf(kind + name, whole)]).then(function (parts) { return { self: parts[0], posts: parts[1] }; });
  }

  // ---- Words, in the page's language ----

  var english = {
    person: "Person", hashtag: "Hashtag", place: "Place", post: "Post", comment: "Comment", journal: "Journal",
    postCount: { one: "{count} post", other: "{count} posts" },
    noResults: "No results.",
    resultCount: { one: "{count} result.", other: "{count} results." },
    showingResults: { one: "Showing {count} result; more below.", other: "Showing {count} results; more below." },
    searching: "Searching…",
    searchFailed: "The search index could not be loaded."
  };
  var words = {};
  try {
    var given = JSON.parse(root.getAttribute("data-words") || "{}");
    if (given && typeof given === "object") words = given;
  } catch (error) { words = {}; }
  var lang = document.documentElement.lang || "en";
  // Made once a page; English ones when the language is not a tag Intl takes.
  function made(make) {
    try { return make(lang); } catch (error) { try { return make("en"); } catch (again) { return null; } }
  }
  var pluralRules = made(function (tag) { return new Intl.PluralRules(tag); });
  var numbers = made(function (tag) { return new Intl.NumberFormat(tag); });
  var days = null;
  try { days = new Intl.DateTimeFormat(lang, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }); } catch (error) { days = null; }
  var months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

  function word(key) {
    var value = words[key];
    return typeof value === "string" && value ? value : english[key];
  }

  // A count's words: the form of the language's plural category for `n` (else `other`), its
  // `{count}` the number as the language writes it.
  function counted(key, n) {
    var forms = words[key], text = typeof forms === "string" ? forms : null;
    if (!text && forms && typeof forms === "object") {
      var category = pluralRules ? pluralRules.select(n) : "other";
      text = typeof forms[category] === "string" ? forms[category] : forms.other;
    }
    if (typeof text !== "string" || !text) text = english[key][n === 1 ? "one" : "other"];
    return text.split("{count}").join(numbers ? numbers.format(n) : String(n));
  }

  // A day number (days since 1970-01-01, UTC) as the language writes it, or "21 November 2026".
  function dayText(number) {
    var day = new Date(number * 86400000);
    if (days) { try { return days.format(day); } catch (error) { days = null; } }
    return day.getUTCDate() + " " + months[day.getUTCMonth()] + " " + day.getUTCFullYear();
  }

  // ---- Showing results ----

  var kindKeys = { u: "person", t: "hashtag", l: "place", p: "post", c: "comment", e: "journal" };
  var kindClasses = { u: "user", t: "tag", l: "place", p: "post", c: "comment", e: "entry" };

  // A card's address, from its kind and slug (SearchDocument.slug).
  function address(data) {
    var slug = data[1];
    switch (data[0]) {
      case "u": return siteRoot + "users/" + slug + "/";
      case "t": return siteRoot + "tags/" + slug + "/";
      case "l": return siteRoot + "locations/" + slug + "/";
      case "c": var at = slug.indexOf("#"); return siteRoot + "posts/" + slug.slice(0, at) + "/#comment-" + slug.slice(at + 1);
      case "e": return siteRoot + "journal/" + slug + "/";
      default: return siteRoot + "posts/" + slug + "/";
    }
  }

  // The line under a card's title: its kind, and its day as the pages write it, or its posts.
  function meta(data) {
    var kind = word(kindKeys[data[0]]);
    if (data[0] === "u" || data[0] === "t" || data[0] === "l") return kind + " · " + counted("postCount", data[4]);
    return kind + " · " + dayText(data[4]);
  }

  function title(data) { return (data[0] === "t" ? "#" : "") + data[2]; }

  // The card's text with the words the query matched in <mark>, built as DOM nodes (never HTML).
  function highlighted(text, matched) {
    var fragment = document.createDocumentFragment();
    function plain(part) { if (part) fragment.appendChild(document.createTextNode(part)); }
    function marked(part) {
      var mark = document.createElement("mark");
      mark.textContent = part;
      fragment.appendChild(mark);
    }
    var pairs = matched.filter(function (m) { return Array.from(m).length > 1 && isCJK(m.codePointAt(0)); });
    var pieces = text.split(/([\p{L}\p{M}\p{N}_'’]+)/u);
    pieces.forEach(function (piece) {
      if (!piece) return;
      // Within a run of Chinese, Japanese or Korean characters, only the characters the query
      // named: "東京" marks 東京 of 東京都の夜景, not the whole run.
      var ranges = cjkRanges(piece, pairs);
      if (!ranges.length) {
        if (tokens(piece).some(function (w) { return matched.indexOf(w) !== -1; })) marked(piece); else plain(piece);
        return;
      }
      var characters = Array.from(piece), at = 0;
      ranges.forEach(function (range) {
        plain(characters.slice(at, range[0]).join(""));
        marked(characters.slice(range[0], range[1]).join(""));
        at = range[1];
      });
      plain(characters.slice(at).join(""));
    });
    return fragment;
  }

  // Where `pairs` (folded CJK bigrams) stand in `piece`, as merged [start, end) ranges of its
  // characters. Each character is folded on its own, so places in the folded text are places
  // in the piece (folding drops a kana's sound mark, but never merges two characters).
  function cjkRanges(piece, pairs) {
    if (!pairs.length) return [];
    var folded = Array.from(piece).map(function (c) { return fold(c); });
    var ranges = [];
    for (var i = 0; i + 1 < folded.length; i++) {
      if (pairs.indexOf(folded[i] + folded[i + 1]) === -1) continue;
      var last = ranges[ranges.length - 1];
      if (last && last[1] >= i) last[1] = i + 2; else ranges.push([i, i + 2]);
    }
    return ranges;
  }

  // An item in its own language (CONTRACT §11): the card's `lang`, and `dir` where it is not the site's.
  function language(element, data) {
    if (data[6]) element.lang = data[6];
    if (data[7]) element.dir = data[7];
  }

  function item(data, matched) {
    var li = document.createElement("li");
    li.className = "search-result search-result-" + kindClasses[data[0]];
    var link = document.createElement("a");
    link.href = address(data);
    if (data[5]) {
      var image = document.createElement("img");
      image.src = siteRoot + data[5]; image.alt = ""; image.width = 48; image.height = 48; image.loading = "lazy";
      image.className = "search-result-thumbnail";
      link.appendChild(image);
    }
    var heading = document.createElement("span");
    heading.className = "search-result-title";
    heading.appendChild(highlighted(title(data), matched));
    if (data[8]) language(heading, data);
    link.appendChild(heading);
    var line = document.createElement("span");
    line.className = "search-result-meta";
    line.textContent = meta(data);
    link.appendChild(line);
    if (data[3]) {
      var snippet = document.createElement("span");
      snippet.className = "search-result-snippet";
      snippet.appendChild(highlighted(data[3], matched));
      language(snippet, data);
      link.appendChild(snippet);
    }
    li.appendChild(link);
    return li;
  }

  var current = null;
  var serial = 0;

  function matchedWords(query) {
    var words = [];
    query.units.forEach(function (u) { words = words.concat(u.words); });
    if (query.lead) words = words.concat(tokens(query.lead.name));
    return words;
  }

  // Shows results up to `state.limit`: takes candidates in order, fetches their cards, keeps
  // those whose phrases hold, and runs later tiers while the candidates fall short.
  function fill(state, number) {
    if (number !== serial) return Promise.resolve();
    var left = state.results.length - state.next;
    // Out of candidates with later tiers left: run them, to fill the list or to know it is whole.
    // (Before fetching cards: a word the site holds rarely shows its near words' results with
    // its own, in one round of cards.)
    if ((left === 0 || left < state.limit - state.shown) && state.pending.length) {
      return state.pending.shift()().then(function () { return fill(state, number); });
    }
    if (state.shown >= state.limit || left === 0) {
      var complete = left === 0 && !state.pending.length;
      more.hidden = complete;
      status.textContent = complete ? (state.shown === 0 ? word("noResults") : counted("resultCount", state.shown))
        : counted("showingResults", state.shown);
      return Promise.resolve();
    }
    var batch = state.results.slice(state.next, state.next + (state.limit - state.shown));
    state.next += batch.length;
    return Promise.all(batch.map(function (r) { return card(r.id); })).then(function (cards) {
      if (number !== serial) return;
      cards.forEach(function (data, i) {
        // A person found by name and by bio is one result.
        if (!holds(state.query, data) || state.addresses.has(address(data))) return;
        state.addresses.add(address(data));
        var matched = state.matched.slice();
        // A prefix or near word the result was found by is marked too.
        if (batch[i].tier > 0) {
          tokens(data[2] + " " + data[3]).forEach(function (w) {
            state.query.units.forEach(function (u) {
              if (!u.phrase && (w.indexOf(u.words[0]) === 0 || oneEdit(u.words[0], w))) matched.push(w);
            });
          });
        }
        list.appendChild(item(data, matched));
        state.shown += 1;
      });
      return fill(state, number);
    });
  }

  // `fill`, marked as running on the state while it does.
  function filled(state, number) {
    state.filling = true;
    function done() { state.filling = false; }
    return fill(state, number).then(done, function (error) { done(); throw error; });
  }

  function search() {
    var text = input.value;
    var number = ++serial;
    remember();
    var query = parse(text);
    list.textContent = "";
    more.hidden = true;
    if (!query.units.length && !query.lead && !activeFilters().length) {
      status.textContent = "";
      return Promise.resolve();
    }
    status.textContent = word("searching");
    return run(query).then(function (found) {
      if (number !== serial) return;
      current = { query: query, matched: matchedWords(query), results: found.results, pending: found.pending, next: 0, shown: 0, limit: shown, addresses: new Set() };
      return filled(current, number);
    }).catch(function () {
      if (number === serial) status.textContent = word("searchFailed");
    });
  }

  // The query and the filters in the address, so a reload, Back or a shared link searches again.
  function remember() {
    if (!window.history || !history.replaceState) return;
    var url = new URL(location.href);
    // As typed: a trailing space says the last word is whole, and a reload keeps that.
    var text = input.value;
    if (text.trim()) url.searchParams.set("q", text); else url.searchParams.delete("q");
    filterNames.forEach(function (name) {
      var value = filters[name].value.trim();
      if (value) url.searchParams.set(name, value); else url.searchParams.delete(name);
    });
    url.searchParams.delete("in");
    url.hash = "";
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  var params = new URLSearchParams(location.search);
  input.value = params.get("q") || "";
  filterNames.forEach(function (name) { if (params.get(name)) filters[name].value = params.get(name); });
  // `/search/?q=#swift` typed as it reads: `#` starts the address's fragment, so the query comes
  // empty and the tag after it. The address is written as it should have been.
  if (params.get("q") === "" && location.hash.length > 1) {
    try { input.value = decodeURIComponent(location.hash); } catch (e) { input.value = location.hash; }
  }

  var timer = null;
  function soon() {
    clearTimeout(timer);
    timer = setTimeout(search, 120);
  }
  input.addEventListener("input", soon);
  filterNames.forEach(function (name) { filters[name].addEventListener("input", soon); });
  form.addEventListener("submit", function (event) { event.preventDefault(); clearTimeout(timer); search(); });
  more.addEventListener("click", function () {
    if (!current) return;
    current.limit += shown;
    var first = current.shown;
    // One fill at a time: a click while one runs only raises the limit it fills to.
    if (current.filling) return;
    filled(current, serial).then(function () {
      var link = list.children[first] && list.children[first].querySelector("a");
      if (link) link.focus();
    });
  });
  if (input.value || activeFilters().length) search();
})();
