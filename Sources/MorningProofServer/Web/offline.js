// What the app keeps on the phone for when the network is gone, in IndexedDB: the last answers of the
// API the page showed, and the queue of actions (done, skip, undo, the check-in answer, with notes)
// recorded offline, each with its instant (`at`) and its day. Loaded by the page (app.js imports it)
// and by the service worker (importScripts), so it has no import or export: it sets
// self.morningproofOffline. Both replay the same queue, one at a time (a Web Lock).
(() => {
  let opening = null;
  const SEND_TIMEOUT = 30_000; // ms one queued action may wait for the server's answer

  function database() {
    opening ||= new Promise((resolve, reject) => {
      const request = indexedDB.open("morningproof", 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        db.createObjectStore("known"); // API path → { json, savedAt }
        db.createObjectStore("session"); // "session" → { token, account, now }: what the worker sends with
        db.createObjectStore("queue", { keyPath: "seq", autoIncrement: true });
        db.createObjectStore("messages", { keyPath: "seq", autoIncrement: true });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => {
        opening = null;
        reject(request.error);
      };
    });
    return opening;
  }

  /// Runs `work(stores...)` in one transaction over `names`; resolves with the result of the request
  /// `work` returns (if any) once the transaction has committed.
  async function run(names, mode, work) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(names, mode);
      const request = work(...[names].flat().map((name) => transaction.objectStore(name)));
      transaction.oncomplete = () => resolve(request?.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
  }

  const remember = (path, json) => run("known", "readwrite", (s) => s.put({ json, savedAt: Date.now() }, path));
  const recall = (path) => run("known", "readonly", (s) => s.get(path));
  const session = () => run("session", "readonly", (s) => s.get("session"));
  const saveSession = (value) => run("session", "readwrite", (s) => s.put(value, "session"));

  /// Signing out forgets what was known and the token; the queue stays, each action with its account,
  /// to be sent when that account signs in again.
  const forget = () => run(["known", "session"], "readwrite", (known, kept) => {
    known.clear();
    kept.clear();
  });

  /// The actions waiting for `account`, in the order they were recorded.
  async function waiting(account) {
    const all = await run("queue", "readonly", (s) => s.getAll());
    return all.filter((action) => action.account === account);
  }

  /// Keeps an action ({kind: "entry" | "undo" | "checkin", habitId, habitName, day, status, note,
  /// answer, at}) for `account`.
  const enqueue = (action) => run("queue", "readwrite", (s) => s.add(action));

  /// The conflicts and refusals replays found since the last call, oldest first; they are then gone.
  const takeMessages = () => run("messages", "readwrite", (s) => {
    const request = s.getAll();
    request.onsuccess = () => s.clear();
    return request;
  });

  /// "Fri 20 Nov" for 2026-11-20.
  function dayWords(day) {
    return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", {
      weekday: "short", day: "numeric", month: "short", timeZone: "UTC",
    });
  }

  /// What an action is, in words: "Read done on Fri 20 Nov", "the answer yes on Fri 20 Nov".
  function describe(action) {
    if (action.kind === "checkin") return `the answer ${action.answer} on ${dayWords(action.day)}`;
    const what = action.kind === "undo" ? "undone" : action.status;
    return `${action.habitName} ${what} on ${dayWords(action.day)}`;
  }

  /// The API request that sends `action`: [method, path, JSON body or undefined].
  function request(action) {
    if (action.kind === "checkin") return ["POST", "/api/checkin", { answer: action.answer, at: action.at }];
    // `dayName` ("today"): a day the page worked out offline, which the server names from `at`.
    const path = `/api/habits/${action.habitId}/entries/${action.dayName || action.day}`;
    if (action.kind === "undo") return ["DELETE", `${path}?at=${encodeURIComponent(action.at)}`];
    const body = { status: action.status, at: action.at };
    if (action.note) body.note = action.note;
    return ["PUT", path, body];
  }

  /// What the page says when the server applied a later change instead: in words, with the state it kept.
  function conflict(action, reply) {
    const place = action.kind === "checkin"
      ? `Your answer to the daily question on ${dayWords(action.day)}`
      : `Your change to ${action.habitName} on ${dayWords(action.day)}`;
    const kept = action.kind === "checkin" ? `the answer is ${reply.answer}`
      : reply.entry ? `it is ${reply.entry.status}` : "it is not recorded";
    return `${place} was replaced by a later one from another device: ${kept}.`;
  }

  /// Sends one queued action with the session `kept`: resolves with what stops the replay ("network",
  /// "server", "signin"), or null once the server answered and the action left the queue (with a
  /// message when the server refused it or kept a later change).
  async function send(action, kept) {
    const [method, path, body] = request(action);
    const headers = { Authorization: `Bearer ${kept.token}` };
    if (kept.now) headers["X-MorningProof-Now"] = kept.now;
    if (body) headers["Content-Type"] = "application/json";
    let response;
    try {
      // Bounded: a request the network swallows (captive Wi-Fi) would hold the replay's lock, and with
      // it every later replay of the page and the worker, for as long as the browser waits.
      const signal = AbortSignal.timeout?.(SEND_TIMEOUT);
      response = await fetch(path, { method, headers, body: body && JSON.stringify(body), signal });
    } catch (error) {
      return "network";
    }
    if (response.status === 401) return "signin";
    if (response.status >= 500 || response.status === 429) return "server";
    let reply = {};
    try {
      reply = await response.json();
    } catch (error) {
      reply = {};
    }
    let message = null;
    if (!response.ok) message = `Not recorded: ${describe(action)}. ${reply.error || `HTTP ${response.status}`}`;
    else if (reply.result === "superseded") message = conflict(action, reply);
    await run(["queue", "messages"], "readwrite", (queue, messages) => {
      queue.delete(action.seq);
      if (message) messages.add({ text: message });
    });
    return null;
  }

  /// Sends the account's queued actions in the order recorded, each removed only once the server
  /// answered it. Stops at a network error, a 5xx or 429 (the action stays, to be sent again) and at
  /// a 401 (it stays until the account signs in); another 4xx drops it with the server's reason as a
  /// message. One replay at a time across the page, its other tabs and the worker: an action is read
  /// from the queue inside the lock, so two replays never send it twice. Resolves with
  /// { stopped: null | "network" | "server" | "signin", sent }.
  async function replay() {
    const work = async () => {
      const kept = await session();
      if (!kept?.token) return { stopped: "signin", sent: 0 };
      let sent = 0;
      // The queue is read once per round (not once per action: a long queue would cost its square),
      // and again when the round is done, for what was recorded meanwhile.
      for (let round = await waiting(kept.account); round.length; round = await waiting(kept.account)) {
        for (const action of round) {
          const stopped = await send(action, kept);
          if (stopped) return { stopped, sent };
          sent += 1;
        }
      }
      return { stopped: null, sent };
    };
    const locks = self.navigator?.locks;
    return locks ? locks.request("morningproof-replay", work) : work();
  }

  self.morningproofOffline = {
    remember, recall, session, saveSession, forget, waiting, enqueue, takeMessages, replay, describe, request,
  };
})();
