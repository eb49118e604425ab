// Sandbox client: a tiny Telegram look-alike talking to the fake Bot API server.
// Every action is one HTTP call to /api/*; changes arrive as server-sent events.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = {
  me: null, bot: null, people: [], chats: [], messages: {}, commands: {},
  current: null, unread: {}, inlineTimer: null, inlineSeq: 0, pendingStart: null,
};
const params = new URLSearchParams(location.search);
let identity = params.get("as") || localStorage.getItem("truco-sandbox-as") || "Ana";

// ---------------------------------------------------------------- HTTP

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ as: state.me ? state.me.id : identity, ...body }),
  };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) { showToast(data.error || `erro ${res.status}`); throw new Error(data.error); }
  return data;
}

async function load() {
  const data = await api(`/api/state?as=${encodeURIComponent(identity)}`);
  state.me = data.me; state.bot = data.bot; state.people = data.people;
  state.chats = data.chats; state.messages = data.messages; state.commands = data.commands;
  identity = data.me.first_name;
  document.title = `${identity} — Truco sandbox`;
  const wanted = params.get("chat");
  const ids = state.chats.map((c) => String(c.id));
  if (!state.current || !ids.includes(String(state.current))) {
    state.current = wanted && ids.includes(wanted) ? wanted : ids[0];
  }
  renderPeople(); renderChatList(); renderChat();
}

// the Telegram languages a person can switch to (the server accepts the same codes)
const LANGUAGES = [["pt-br", "🇧🇷 Português"], ["en", "🇬🇧 English"], ["es", "🇦🇷 Español"]];

// ---------------------------------------------------------------- rendering helpers

function esc(s) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

const TAGS = {
  bold: ["<b>", "</b>"], italic: ["<i>", "</i>"], underline: ["<u>", "</u>"],
  strikethrough: ["<s>", "</s>"], code: ["<code>", "</code>"], pre: ["<pre>", "</pre>"],
  spoiler: ['<span class="spoiler" tabindex="0">', "</span>"],
  blockquote: ["<blockquote>", "</blockquote>"], expandable_blockquote: ["<blockquote>", "</blockquote>"],
  mention: ['<span class="mention">', "</span>"],
};

// Entities use UTF-16 offsets, which is exactly how JavaScript indexes strings.
function renderText(text, entities) {
  const ents = (entities || []).filter((e) => e.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  const cuts = new Set([0, text.length]);
  ents.forEach((e) => { cuts.add(e.offset); cuts.add(e.offset + e.length); });
  const points = [...cuts].sort((a, b) => a - b);
  let out = "";
  const open = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    while (open.length && open[open.length - 1].offset + open[open.length - 1].length <= p) {
      out += closeTag(open.pop());
    }
    ents.filter((e) => e.offset === p).forEach((e) => { out += openTag(e, text); open.push(e); });
    if (i + 1 < points.length) out += esc(text.slice(p, points[i + 1]));
  }
  while (open.length) out += closeTag(open.pop());
  return out;
}

function openTag(e, text) {
  if (e.type === "text_link") return `<a href="${esc(e.url)}" target="_blank" rel="noopener">`;
  if (e.type === "bot_command") {
    const cmd = text.slice(e.offset, e.offset + e.length);
    return `<a href="#" class="cmd" data-cmd="${esc(cmd)}">`;
  }
  return (TAGS[e.type] || ["<span>", "</span>"])[0];
}

function closeTag(e) {
  if (e.type === "text_link" || e.type === "bot_command") return "</a>";
  return (TAGS[e.type] || ["<span>", "</span>"])[1];
}

function hhmm(ts) {
  const d = new Date(ts * 1000);
  return d.toLocaleTimeString("pt-BR", { hour: "2-digit", minute: "2-digit" });
}

function initials(name) { return (name || "?").trim().slice(0, 1).toUpperCase(); }

function colorFor(id) {
  const colors = ["#e17076", "#7bc862", "#65aadd", "#a695e7", "#ee7aae", "#6ec9cb", "#faa774"];
  return colors[Math.abs(Number(id)) % colors.length];
}

function chatById(id) { return state.chats.find((c) => String(c.id) === String(id)); }

function chatTitle(chat) { return chat.type === "private" ? state.bot.first_name : chat.title; }

// ---------------------------------------------------------------- sidebar

function renderPeople() {
  const nav = $("#people");
  nav.innerHTML = "";
  state.people.forEach((p) => {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = p.name; b.className = "person";
    b.style.setProperty("--c", colorFor(p.id));
    if (p.id === state.me.id) b.classList.add("active");
    b.setAttribute("aria-pressed", p.id === state.me.id);
    b.onclick = () => switchTo(p.name);
    nav.appendChild(b);
  });
  // the bot speaks each person's Telegram language: one tap moves to the next one
  const me = state.people.find((p) => p.id === state.me.id);
  const at = Math.max(0, LANGUAGES.findIndex(([code]) => me && me.language === code));
  const next = LANGUAGES[(at + 1) % LANGUAGES.length];
  const lang = document.createElement("button");
  lang.type = "button"; lang.className = "person language";
  lang.textContent = LANGUAGES[at][1];
  lang.title = "→ " + next[1];
  lang.onclick = async () => {
    await api("/api/language", { as: identity, language: next[0] });
    load();
  };
  nav.appendChild(lang);
}

function switchTo(name) {
  identity = name;
  localStorage.setItem("truco-sandbox-as", name);
  const url = new URL(location.href);
  url.searchParams.set("as", name);
  history.replaceState(null, "", url);
  const keepPrivate = chatById(state.current)?.type === "private";
  state.current = null; state.unread = {};
  load().then(() => {
    if (keepPrivate) openChat(String(state.me.id));
  });
}

function lastMessage(chatId) {
  const list = state.messages[chatId] || [];
  return list[list.length - 1];
}

// The list is updated in place, never rebuilt: an item replaced between a pointer's press
// and release gets no click, and the bot's messages update the list all the time.
function renderChatList() {
  const ul = $("#chat-list");
  const old = new Map([...ul.children].map((li) => [li.dataset.chat, li]));
  state.chats.forEach((chat, n) => {
    const id = String(chat.id);
    const li = old.get(id) || chatItem(id);
    old.delete(id);
    li.classList.toggle("active", id === String(state.current));
    const avatar = li.querySelector(".avatar");
    avatar.style.background = colorFor(chat.id);
    avatar.textContent = chat.type === "private" ? "🂡" : initials(chat.title);
    const name = `${esc(chatTitle(chat))}${chat.type === "private" ? ' <span class="bot-tag">bot</span>' : ""}`;
    const title = li.querySelector(".chat-name");
    if (title.innerHTML !== name) title.innerHTML = name;
    const last = lastMessage(id);
    li.querySelector(".chat-preview").textContent =
      last ? (last.text || "").split("\n")[0] : (chat.type === "private" ? "Toque para iniciar o bot" : "");
    const badge = li.querySelector(".badge");
    badge.textContent = state.unread[id] || "";
    badge.hidden = !state.unread[id];
    if (ul.children[n] !== li) ul.insertBefore(li, ul.children[n] || null);
  });
  old.forEach((li) => li.remove());
}

function chatItem(id) {
  const li = document.createElement("li");
  li.className = "chat-item";
  li.dataset.chat = id;
  li.innerHTML = `<div class="avatar"></div>
    <div class="chat-text"><div class="chat-name"></div><div class="chat-preview"></div></div>
    <span class="badge" hidden></span>`;
  li.onclick = () => openChat(id);
  return li;
}

function openChat(id) {
  state.current = id; state.unread[id] = 0;
  $("#app").classList.remove("show-list");
  hideInline(); hideCommands();
  renderChatList(); renderChat();
}

// ---------------------------------------------------------------- chat view

function renderChat() {
  const chat = chatById(state.current);
  if (!chat) return;
  $("#chat-title").textContent = chatTitle(chat);
  $("#chat-sub").textContent = chat.type === "private" ? "bot" : `${state.people.length} membros · você é ${state.me.first_name}`;
  const av = $("#chat-avatar");
  av.textContent = chat.type === "private" ? "🂡" : initials(chat.title);
  av.style.background = colorFor(chat.id);
  const notStarted = chat.type === "private" && !chat.started && !(state.messages[state.current] || []).length;
  $("#composer").hidden = notStarted;
  // Like Telegram, the menu button exists only when the bot published commands here.
  $("#menu-btn").hidden = !(state.commands[state.current] || []).length;
  $("#start-bar").hidden = !notStarted;
  const box = $("#messages");
  box.innerHTML = "";
  const shown = state.messages[state.current] || [];
  shown.forEach((m) => box.appendChild(renderMessage(m, chat)));
  if (chat.type !== "private" && !shown.length) {
    // an empty group: say how a table starts (the command is a link, as in Telegram)
    const hint = document.createElement("div");
    hint.className = "empty-hint";
    hint.innerHTML = 'Grupo vazio. Digite <a href="#" class="cmd" data-cmd="/truco">/truco</a> para abrir uma mesa, ou <a href="#" class="cmd" data-cmd="/ajuda">/ajuda</a>.';
    box.appendChild(hint);
  }
  box.scrollTop = box.scrollHeight;
}

function renderMessage(m, chat) {
  const mine = m.from && m.from.id === state.me.id;
  const wrap = document.createElement("div");
  wrap.className = "msg" + (mine ? " mine" : "") + (m.from && m.from.is_bot ? " from-bot" : "");
  wrap.id = `m-${m.message_id}`;
  wrap.dataset.messageId = m.message_id;
  const sender = chat.type !== "private" && !mine
    ? `<div class="sender" style="color:${colorFor(m.from.id)}">${esc(m.from.first_name)}</div>` : "";
  const via = m.via_bot ? `<div class="via">via @${esc(m.via_bot.username)}</div>` : "";
  const edited = m.edit_date ? '<span class="edited">editado</span> ' : "";
  const r = m.reply_to_message;
  const reply = r ? `<div class="reply"><div class="reply-name">${esc(r.from.first_name)}</div><div class="reply-text">${esc((r.text || "").split("\n")[0])}</div></div>` : "";
  // Telegram shows a deep link's "/start <payload>" as a bare "/start"
  const shown = mine && /^\/start \S+$/.test(m.text || "") ? "/start" : (m.text || "");
  const entities = shown === m.text ? m.entities : undefined;
  wrap.innerHTML = `<div class="bubble">${sender}${via}${reply}<div class="text">${renderText(shown, entities)}</div>
    <div class="meta">${edited}${hhmm(m.edit_date || m.date)}</div></div>`;
  if (m.reply_markup && m.reply_markup.inline_keyboard) wrap.appendChild(renderKeyboard(m));
  return wrap;
}

function renderKeyboard(m) {
  const kb = document.createElement("div");
  kb.className = "keyboard";
  m.reply_markup.inline_keyboard.forEach((row) => {
    const r = document.createElement("div");
    r.className = "kb-row";
    row.forEach((btn) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "kb-btn"; b.textContent = btn.text;
      if (btn.url) b.classList.add("url");
      if (btn.switch_inline_query !== undefined || btn.switch_inline_query_current_chat !== undefined) b.classList.add("inline");
      b.onclick = () => pressButton(m, btn, b);
      r.appendChild(b);
    });
    kb.appendChild(r);
  });
  return kb;
}

async function pressButton(m, btn, el) {
  if (btn.callback_data !== undefined) {
    el.classList.add("loading");
    try {
      const ans = await api("/api/press", {
        chat: state.current, message_id: m.inline_message_id ? undefined : m.message_id,
        inline_message_id: m.inline_message_id, data: btn.callback_data,
      });
      if (ans.url) followUrl(ans.url);
      if (ans.text) (ans.show_alert ? showAlert : showToast)(ans.text);
    } catch (e) {
      // refused by the fake Telegram (the message was deleted as it was tapped, as a hand
      // message is when a turn comes): api() said so in a toast; nothing else to do
    } finally { el.classList.remove("loading"); }
  } else if (btn.web_app) {
    openWebApp(btn.web_app.url);
  } else if (btn.url) {
    followUrl(btn.url);
  } else if (btn.switch_inline_query_current_chat !== undefined) {
    startInline(btn.switch_inline_query_current_chat, state.current);
  } else if (btn.switch_inline_query !== undefined) {
    const group = state.chats.find((c) => c.type !== "private");
    if (group) startInline(btn.switch_inline_query, String(group.id));
  }
}

// t.me links to this bot open its private chat, as Telegram does; others open in a new tab.
function followUrl(url) {
  const app = url.match(/^https?:\/\/(?:t\.me|telegram\.me)\/([A-Za-z0-9_]+)\/([A-Za-z0-9_]+)\/?(?:\?.*)?$/);
  if (app && state.bot && app[1].toLowerCase() === state.bot.username.toLowerCase()) {
    openWebApp(url);
    return;
  }
  const m = url.match(/^https?:\/\/(?:t\.me|telegram\.me)\/([A-Za-z0-9_]+)\/?(?:\?(.*))?$/);
  if (m && state.bot && m[1].toLowerCase() === state.bot.username.toLowerCase()) {
    const q = new URLSearchParams(m[2] || "");
    const payload = q.get("start");
    const own = chatById(state.me.id);
    // Like Telegram: a chat never started shows INICIAR (sending the payload when pressed);
    // a started one gets the /start with the payload at once.
    state.pendingStart = payload;
    openChat(String(state.me.id));
    if (payload !== null && own && own.started) startBot();
    return;
  }
  window.open(url, "_blank", "noopener");
}

// ---------------------------------------------------------------- composer, commands, inline mode

function startBot() {
  const payload = state.pendingStart;
  state.pendingStart = null;
  sendText(payload ? `/start ${payload}` : "/start", String(state.me.id));
}

async function sendText(text, chatId) {
  const chat = chatId || state.current;
  await api("/api/send", { chat, text });
}

function inlinePrefix() { return `@${state.bot.username}`; }

function onInput() {
  const v = $("#text").value;
  const prefix = inlinePrefix().toLowerCase();
  if (v.toLowerCase().startsWith(prefix) && (v.length === prefix.length || v[prefix.length] === " ")) {
    const query = v.slice(prefix.length).replace(/^ /, "");
    clearTimeout(state.inlineTimer);
    state.inlineTimer = setTimeout(() => runInline(query, state.current), 250);
  } else {
    hideInline();
  }
  if (v.startsWith("/") && !v.includes(" ")) showCommands(v); else if ($("#command-panel").dataset.auto) hideCommands();
}

function startInline(query, chatId) {
  if (String(chatId) !== String(state.current)) openChat(String(chatId));
  const input = $("#text");
  input.value = `${inlinePrefix()} ${query}`;
  input.focus();
  runInline(query, chatId);
}

async function runInline(query, chatId) {
  const seq = ++state.inlineSeq;
  const panel = $("#inline-panel");
  panel.hidden = false;
  panel.innerHTML = '<div class="inline-wait">…</div>';
  let data;
  try { data = await api("/api/inline", { chat: chatId, query }); } catch { hideInline(); return; }
  if (seq !== state.inlineSeq) return;
  panel.innerHTML = "";
  if (data.button) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "inline-switch"; b.textContent = data.button.text;
    b.onclick = () => {
      hideInline(); $("#text").value = "";
      if (data.button.start_parameter !== undefined) followUrl(`https://t.me/${state.bot.username}?start=${data.button.start_parameter}`);
    };
    panel.appendChild(b);
  }
  if (!data.results.length) {
    const empty = document.createElement("div");
    empty.className = "inline-wait";
    empty.textContent = data.timeout ? "O bot não respondeu." : "Nenhum resultado.";
    panel.appendChild(empty);
  }
  data.results.forEach((r) => {
    const item = document.createElement("button");
    item.type = "button"; item.className = "inline-result";
    item.dataset.resultId = r.id;
    item.innerHTML = `<div class="r-title">${esc(r.title || r.id)}</div>${r.description ? `<div class="r-desc">${esc(r.description)}</div>` : ""}`;
    item.onclick = async () => {
      hideInline(); $("#text").value = "";
      await api("/api/choose", { chat: chatId, result_id: r.id, query });
    };
    panel.appendChild(item);
  });
}

function hideInline() {
  state.inlineSeq++;
  clearTimeout(state.inlineTimer);
  $("#inline-panel").hidden = true;
}

function showCommands(filter) {
  const list = (state.commands[state.current] || []).filter((c) => !filter || `/${c.command}`.startsWith(filter));
  const panel = $("#command-panel");
  if (!list.length) { hideCommands(); return; }
  panel.innerHTML = "";
  panel.dataset.auto = filter ? "1" : "";
  list.forEach((c) => {
    const b = document.createElement("button");
    b.type = "button"; b.className = "command";
    b.innerHTML = `<span class="c-name">/${esc(c.command)}</span><span class="c-desc">${esc(c.description)}</span>`;
    b.onclick = () => { hideCommands(); $("#text").value = ""; sendText(`/${c.command}`); };
    panel.appendChild(b);
  });
  panel.hidden = false;
}

function hideCommands() { $("#command-panel").hidden = true; }

// ---------------------------------------------------------------- toasts and alerts

let toastTimer = null;
function showToast(text) {
  const t = $("#toast");
  t.textContent = text; t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 2500);
}

function showAlert(text) {
  $("#alert-text").textContent = text;
  $("#alert").hidden = false;
  $("#alert-ok").focus();
}

// ---------------------------------------------------------------- live updates

function applyEvent(ev) {
  if (ev.type === "chat" || ev.type === "commands") { load(); return; }
  const id = String(ev.chat_id);
  if (!(id in state.messages)) return;  // not a chat this person sees
  const list = state.messages[id];
  const box = $("#messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  if (ev.type === "message") {
    list.push(ev.message);
    const chat = chatById(id);
    const opened = chat && chat.type === "private" && !chat.started;
    if (chat && chat.type === "private") chat.started = true;
    if (id !== String(state.current)) {
      state.unread[id] = (state.unread[id] || 0) + 1;
    } else if (!opened && !box.querySelector(".empty-hint")) {
      // added below the others, the messages on screen untouched: a button being pressed
      // while a message arrives keeps its click
      box.appendChild(renderMessage(ev.message, chat));
      if (atBottom) box.scrollTop = box.scrollHeight;
      renderChatList();
      return;
    }
  } else if (ev.type === "edit") {
    const i = list.findIndex((m) => m.message_id === ev.message.message_id);
    if (i >= 0) list[i] = ev.message;
    if (id === String(state.current)) {
      const old = document.getElementById(`m-${ev.message.message_id}`);
      if (old) {
        // an edit that makes a message taller keeps the bottom in view, as Telegram does
        old.replaceWith(renderMessage(ev.message, chatById(id)));
        if (atBottom) box.scrollTop = box.scrollHeight;
        renderChatList();
        return;
      }
    }
  } else if (ev.type === "delete") {
    state.messages[id] = list.filter((m) => m.message_id !== ev.message_id);
    const gone = id === String(state.current) && document.getElementById(`m-${ev.message_id}`);
    if (gone && state.messages[id].length) {
      gone.remove();
      renderChatList();
      return;
    }
  }
  renderChatList();
  if (id === String(state.current)) {
    const scrolled = box.scrollTop;
    renderChat();
    // keep reading where you were unless you were at the bottom already
    if (!atBottom) box.scrollTop = scrolled;
  }
}

function connect() {
  const es = new EventSource("/api/events");
  es.onmessage = (e) => applyEvent(JSON.parse(e.data));
  // EventSource reconnects by itself; say so while it does (the sandbox is restarting)
  es.onerror = () => { $("#offline").hidden = false; };
  es.onopen = () => { $("#offline").hidden = true; if (state.me) load(); };
}

// ---------------------------------------------------------------- wiring

$("#composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $("#text");
  const text = input.value;
  if (!text.trim()) return;
  if (!$("#inline-panel").hidden) return;  // Enter while choosing an inline result
  input.value = ""; hideCommands();
  await sendText(text);
});
$("#text").addEventListener("input", onInput);
$("#menu-btn").addEventListener("click", () => ($("#command-panel").hidden ? showCommands("") : hideCommands()));
$("#start-btn").addEventListener("click", startBot);
$("#back").addEventListener("click", () => $("#app").classList.add("show-list"));
$("#alert-ok").addEventListener("click", () => { $("#alert").hidden = true; });
$("#messages").addEventListener("click", (e) => {
  const a = e.target.closest("a.cmd");
  if (a) { e.preventDefault(); sendText(a.dataset.cmd); }
  const sp = e.target.closest(".spoiler");
  if (sp) sp.classList.add("revealed");
});

load().then(() => {
  if (params.get("chat") || window.innerWidth > 720) $("#app").classList.remove("show-list");
  connect();
});

// ---------------------------------------------------------------- Mini App

// Like Telegram: the bot's Mini App opens over the chat, signed for the person using the page.
async function openWebApp(url) {
  const ans = await api("/api/webapp", { url });
  const panel = $("#webapp");
  $("#webapp-frame").src = ans.url;
  panel.hidden = false;
}

$("#webapp-close").onclick = () => {
  $("#webapp").hidden = true;
  $("#webapp-frame").src = "about:blank";
  $("#webapp-main").hidden = $("#webapp-back").hidden = true;
};

// Telegram's MainButton and BackButton, drawn here for the app as Telegram's web version
// does: the page posts its events to this frame's parent, the presses go back to it.
function toWebApp(eventType) {
  const frame = $("#webapp-frame").contentWindow;
  if (frame) frame.postMessage(JSON.stringify({ eventType, eventData: {} }), "*");
}
window.addEventListener("message", (event) => {
  if (event.source !== $("#webapp-frame").contentWindow) return;
  let msg;
  try { msg = typeof event.data === "string" ? JSON.parse(event.data) : event.data; } catch (e) { return; }
  const data = (msg && msg.eventData) || {};
  if (msg.eventType === "web_app_setup_main_button") {
    const main = $("#webapp-main");
    main.hidden = !data.is_visible;
    main.textContent = data.text || "";
    if (data.color) main.style.background = data.color;
    if (data.text_color) main.style.color = data.text_color;
  } else if (msg.eventType === "web_app_setup_back_button") {
    $("#webapp-back").hidden = !data.is_visible;
  }
});
$("#webapp-main").onclick = () => toWebApp("main_button_pressed");
$("#webapp-back").onclick = () => toWebApp("back_button_pressed");
