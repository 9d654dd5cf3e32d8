/**
 * The page's script (served as /page.js, the only script the CSP allows). It listens to `/events` and
 * redraws the table from each snapshot with DOM calls only (`textContent`, never HTML from a run: a
 * task can hold `<script>`). The token comes from the URL's fragment, which the browser never sends in
 * a request, and goes out only in the header of an action's POST to this same server.
 */
export const PAGE_SCRIPT = String.raw`"use strict";
(() => {
  const words = JSON.parse(document.getElementById("words").textContent);
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  const body = document.querySelector("#runs tbody");
  const state = document.getElementById("state");
  const message = document.getElementById("message");
  const fill = (template, ...values) =>
    values.reduce((text, value, index) => text.split("{" + index + "}").join(String(value)), template);
  const trim = (fixed) => (fixed.endsWith(".0") ? fixed.slice(0, -2) : fixed);
  const tokens = (n) => {
    const value = Math.max(0, Math.round(n));
    if (value < 1000) return String(value);
    if (value < 10000) return trim((value / 1000).toFixed(1)) + "K";
    if (Math.round(value / 1000) < 1000) return Math.round(value / 1000) + "K";
    return trim((value / 1e6).toFixed(1)) + "M";
  };
  const cost = (usd) => (usd < 1 ? "$" + usd.toFixed(4) : "$" + usd.toFixed(2));
  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
    for (const child of children) if (child != null) node.append(child);
    return node;
  };
  const percent = (part, whole) => Math.max(0, Math.min(100, (part / whole) * 100)).toFixed(2) + "%";

  function gauge(g) {
    if (!g) return el("span", { class: "muted" }, "-");
    const level = g.context >= g.at ? "fill over" : g.context >= g.warnAt ? "fill warn" : "fill";
    const bar = el("div", { class: "gauge", role: "meter", "aria-valuemin": 0, "aria-valuemax": g.window,
      "aria-valuenow": g.context, "data-context": g.context, "data-window": g.window, "data-at": g.at });
    bar.append(el("div", { class: level }), el("div", { class: "line" }));
    // Widths through CSSOM, not a style attribute: the CSP allows no inline style.
    bar.children[0].style.width = percent(g.context, g.window);
    bar.children[1].style.left = percent(g.at, g.window);
    return el("div", {}, bar,
      el("span", { class: "gauge-text" }, fill(words.gauge, tokens(g.context), tokens(g.window), tokens(g.at))));
  }

  function checks(list) {
    if (list.length === 0) return el("span", { class: "muted" }, "-");
    const ul = el("ul", { class: "checks" });
    for (const check of list)
      ul.append(el("li", { class: check.passed ? "passed" : "failed", "data-passed": check.passed },
        el("span", { class: "mark" }, check.passed ? "✓" : "✗"), " ", el("code", {}, check.name)));
    return ul;
  }

  // The files the latest generations changed: three named a line, the rest counted (all sent in the title);
  // then the goal's checks at the generation's handoff, where they ran (the drift watch).
  function work(w) {
    if (!w || w.generations.length === 0) return null;
    const ul = el("ul", { class: "work" });
    if (w.earlier > 0) ul.append(el("li", { class: "muted" }, fill(words.earlierGenerations, w.earlier)));
    for (const g of w.generations) {
      const label = (g.step ? g.step + " " : "") + fill(words.generationShort, g.generation);
      const named = (list, shown) =>
        list.slice(0, shown).join(", ") + (g.count > shown ? " " + fill(words.moreFiles, g.count - shown) : "");
      const checks = g.checks
        ? " · " + fill(words.generationChecks, g.checks.passing, g.checks.total) +
          (g.checks.newly > 0 ? " (" + fill(words.newlyPassing, g.checks.newly) + ")" : "")
        : "";
      const files = g.count > 0 ? named(g.files, 3) : words.noFiles;
      ul.append(el("li", { "data-generation": g.generation, "data-files": g.count,
        ...(g.checks ? { "data-passing": g.checks.passing } : {}),
        title: named(g.files, g.files.length) }, fill(words.generationFiles, label, files) + checks));
    }
    return ul;
  }

  // What a person is typing to a run survives the redraws (a running run's gauge redraws every second).
  const drafts = new Map();
  let typing = null;

  function actionButtons(run, actions) {
    const cell = el("td", { class: "actions" });
    if (!actions) return cell;
    for (const [action, label] of [["approve", words.approve], ["cancel", words.cancel]]) {
      if (!run.can[action]) continue;
      const button = el("button", { type: "button", "data-action": action }, label);
      button.addEventListener("click", () => act(action, run.name, label, button));
      cell.append(button);
    }
    if (run.can.say) cell.append(sayField(run.name));
    return cell;
  }

  /** flower say from the page: the words go to the run's main thread at its next message boundary. */
  function sayField(name) {
    const input = el("input", { type: "text", class: "say", "data-say": name, placeholder: words.sayPlaceholder,
      "aria-label": fill(words.sayLabel, name) });
    input.value = drafts.get(name) || "";
    const button = el("button", { type: "button", "data-action": "say" }, words.say);
    const send = async () => {
      const text = input.value.trim();
      if (text === "") return;
      const sent = await act("say", name, words.say, button, { text });
      if (sent) {
        drafts.delete(name);
        input.value = "";
      }
    };
    input.addEventListener("input", () => drafts.set(name, input.value));
    input.addEventListener("focus", () => (typing = name));
    input.addEventListener("blur", () => { if (typing === name) typing = null; });
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") void send(); });
    button.addEventListener("click", () => void send());
    return el("span", { class: "say" }, input, button);
  }

  function row(run, actions) {
    const name = run.report
      ? el("a", { href: "/runs/" + encodeURIComponent(run.name) + "/report" }, run.name)
      : el("span", {}, run.name);
    const runCell = el("td", { class: "run", title: run.task }, name, el("span", { class: "task" }, run.task));
    if (run.documents.length > 0) runCell.append(el("span", { class: "task" }, run.documents.join(" · ")));
    const status = words.status[run.status] || run.status;
    return el("tr", { "data-run": run.name, "data-status": run.status },
      runCell,
      el("td", {}, el("span", { class: "status status-" + run.status.replace(/[^a-z-]/g, "") }, status)),
      el("td", { class: "step" }, run.step || "-"),
      el("td", { class: "machine" }, run.machine || "-"),
      el("td", { class: "context" }, gauge(run.gauge)),
      el("td", { class: "number generations" }, String(run.generations), work(run.work)),
      el("td", { class: "number cost" }, cost(run.costUsd) +
        (run.budgetUsd ? " " + fill(words.ofBudget, cost(run.budgetUsd)) : "")),
      el("td", { class: "checks" }, checks(run.checks)),
      actionButtons(run, actions));
  }

  function render(snapshot) {
    document.getElementById("where").textContent = snapshot.where;
    const focused = typing;
    const at = focused === null ? null : document.activeElement && document.activeElement.selectionStart;
    body.replaceChildren(...[...snapshot.runs].reverse().map((run) => row(run, snapshot.actions)));
    if (focused !== null) {
      const input = [...body.querySelectorAll("input[data-say]")].find((field) => field.dataset.say === focused);
      if (input) {
        input.focus();
        if (typeof at === "number") input.setSelectionRange(at, at);
      }
    }
    document.getElementById("empty").hidden = snapshot.runs.length > 0;
    document.getElementById("read-only").hidden = snapshot.actions;
    // A read-only page has no actions column at all.
    document.body.classList.toggle("read-only", !snapshot.actions);
    if (snapshot.error) {
      message.textContent = snapshot.error;
      message.className = "message refused";
    }
  }

  async function act(action, name, label, button, json) {
    button.disabled = true;
    try {
      const response = await fetch("/runs/" + encodeURIComponent(name) + "/" + action, {
        method: "POST",
        headers: json
          ? { "x-flower-token": token, "content-type": "application/json" }
          : { "x-flower-token": token },
        ...(json ? { body: JSON.stringify(json) } : {}),
      });
      const why = (await response.text()).trim() || String(response.status);
      message.textContent = response.ok
        ? fill(action === "say" ? words.said : words.done, label, name)
        : fill(words.refused, label, name, why);
      message.className = response.ok ? "message" : "message refused";
      message.dataset.status = String(response.status);
      return response.ok;
    } finally {
      button.disabled = false;
    }
  }

  const events = new EventSource("/events");
  events.addEventListener("runs", (event) => render(JSON.parse(event.data)));
  events.addEventListener("open", () => {
    state.textContent = words.live;
    state.className = "state live";
  });
  events.addEventListener("error", () => {
    state.textContent = words.reconnecting;
    state.className = "state";
  });
})();
`;
