// Touchstone web page: sign in with a passkey, a password or a phone approval; manage passkeys, devices, sessions and
// recovery codes, and see the account's security notices.
// Tokens live in this module's memory only: no cookies, no localStorage, no sessionStorage.

// The account app the server accepts the page's tokens for (`serve --account-client-id`).
const CLIENT_ID = document.querySelector('meta[name="touchstone-client-id"]')?.content || "com.example.demo";
// The passkeys' RP ID (`serve --rp-id`), for telling the browser about a passkey removed here.
const RP_ID = document.querySelector('meta[name="touchstone-rp-id"]')?.content || window.location.hostname;
const POLL_INTERVAL_MS = 2000;
const REFRESH_MARGIN_MS = 60_000;

// ---------------------------------------------------------------------------------------------------------------
// State (memory only)

const state = {
  session: null, // the session object of the protocol, refreshed in place
  how: null, // "password" | "passkey" | "device"
  username: null, // what the user typed, when they typed one
  refreshTimer: null,
  refreshing: null, // the refresh in flight, so that two callers share it
  privileged: null, // { token, expiresAt } after a step-up
  tickTimer: null,
  approval: null, // { id, pollSecret, number, deadline, timer, username }
  ceremony: null, // AbortController of the WebAuthn call in flight
  pendingRemoval: null, // { kind, id, name }: a passkey, device or session to remove, or "recovery-codes" to create
  recoveryCodes: null, // the codes just created, shown once and forgotten when hidden
  signIn: null, // { requestId, clientName, requiredAcr } while a site waits for this sign-in (OpenID Connect)
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------------------------
// Messages for people

class ApiError extends Error {
  constructor(status, code, title, detail, retryAfter) {
    super(title || code);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

function waitText(seconds) {
  const value = Number.parseInt(seconds, 10);
  if (!Number.isFinite(value) || value <= 0) return "a moment";
  if (value < 60) return value === 1 ? "1 second" : `${value} seconds`;
  const minutes = Math.ceil(value / 60);
  return minutes === 1 ? "a minute" : `${minutes} minutes`;
}

const SERVER_MESSAGES = {
  network: "Cannot reach the server. Check your connection and try again.",
  invalid_request: "The server did not accept what was sent. Check what you entered and try again.",
  payload_too_large: "What you entered is too long.",
  not_found: "The server does not know this request any more. Start again.",
  method_not_allowed: "The server does not support this action.",
  unauthorized: "Your session has ended. Sign in again.",
  service_unavailable: "The service is unavailable right now. Try again in a moment.",
  internal_error: "Something went wrong on the server. Try again in a moment.",
  app_not_found: "This site is not set up for sign-in on this server. Contact the administrator.",
  username_taken: "That username is taken. Choose another one.",
  weak_password: "Choose a password of 8 to 1024 characters.",
  signup_disabled: "Accounts are created by an administrator on this server; you cannot sign up here.",
  invalid_credentials: "That username and password do not match. Check both and try again.",
  too_many_attempts: (error) => `Too many attempts. Wait ${waitText(error.retryAfter)} and try again.`,
  refresh_token_invalid: "Your session has ended. Sign in again.",
  refresh_token_reused:
    "Your session was ended because it was used from two places at once. Sign in again; if this happens again, change your password.",
  device_proof_required: "This session can only be renewed by the device that created it. Sign in again.",
  invalid_device_proof: "This session can only be renewed by the device that created it. Sign in again.",
  reauthentication_required: "You were away for a while, so your session ended. Sign in again.",
  step_up_required: "For your security, confirm with your password first.",
  insufficient_authentication:
    "You signed in with a password only. Sign out, then sign in with a passkey or from your phone to do this.",
  device_not_found: "That device is no longer registered to your account.",
  device_revoked: "That device has been revoked.",
  webauthn_verification_failed: "Your passkey could not be verified. Try again, or sign in another way.",
  ceremony_invalid: "The passkey request expired or was already used. Try again.",
  credential_possibly_cloned:
    "This passkey was refused because it may have been copied. Sign in another way and remove it from your account.",
  credential_exists: "This passkey is already registered.",
  expired: "The request expired. Start again.",
};

// Browser WebAuthn errors (DOMException names).
function webAuthnMessage(error, creating) {
  switch (error && error.name) {
    case "NotAllowedError":
      return creating
        ? "No passkey was created: the request was cancelled or timed out."
        : "No passkey was used: the request was cancelled, timed out, or this device has no passkey for this site.";
    case "AbortError":
      return "The passkey request was cancelled.";
    case "InvalidStateError":
      return creating
        ? "This device already holds a passkey for your account. Use it to sign in, or add a passkey on another device."
        : "The passkey request could not start. Try again.";
    case "SecurityError":
      return "Passkeys cannot be used at this address. Open the site by its name (not an IP address) over HTTPS.";
    case "NotSupportedError":
      return "This browser or device does not support the kind of passkey this site needs.";
    case "ConstraintError":
      return "This device cannot verify you for a passkey (set up a fingerprint, face or screen lock first).";
    case "TypeError":
      return "The passkey request was malformed. Reload the page and try again.";
    default:
      return `The passkey request failed${error && error.message ? `: ${error.message}` : "."}`;
  }
}

function messageFor(error, overrides = {}) {
  if (error instanceof ApiError) {
    const entry = overrides[error.code] ?? SERVER_MESSAGES[error.code];
    if (typeof entry === "function") return entry(error);
    if (entry) return entry;
    return `The request failed (${error.status}${error.code ? ` ${error.code}` : ""}). Try again.`;
  }
  if (error instanceof DOMException || (error && error.name && error.name !== "Error")) {
    return webAuthnMessage(error, overrides.creating === true);
  }
  return `Something went wrong: ${error && error.message ? error.message : error}`;
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

async function api(method, path, { body, token, headers = {}, credentials = "omit" } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers }, cache: "no-store", credentials };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (token) init.headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", "network error");
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      data && typeof data.code === "string" ? data.code : `http_${response.status}`,
      data && data.title,
      data && data.detail,
      response.headers.get("Retry-After"),
    );
  }
  return data;
}

// A call with the session's access token: one silent refresh and retry when the token was refused.
async function authed(method, path, body) {
  if (!state.session) throw new ApiError(401, "unauthorized", "signed out");
  try {
    return await api(method, path, { body, token: state.session.accessToken });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || error.code !== "unauthorized") throw error;
    await refreshSession();
    return api(method, path, { body, token: state.session.accessToken });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// WebAuthn JSON (Level 3 helpers where the browser has them, by hand otherwise)

function base64urlToBuffer(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function bufferToBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function descriptors(list) {
  return list ? list.map((item) => ({ ...item, id: base64urlToBuffer(item.id) })) : undefined;
}

function creationOptions(json) {
  if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function") {
    return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  }
  return {
    ...json,
    challenge: base64urlToBuffer(json.challenge),
    user: { ...json.user, id: base64urlToBuffer(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials),
  };
}

function requestOptions(json) {
  if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function") {
    return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  }
  return { ...json, challenge: base64urlToBuffer(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

function credentialToJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const response = credential.response;
  const json = {
    id: credential.id,
    rawId: bufferToBase64url(credential.rawId),
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    response: { clientDataJSON: bufferToBase64url(response.clientDataJSON) },
  };
  if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
  if (response.attestationObject) {
    json.response.attestationObject = bufferToBase64url(response.attestationObject);
    json.response.transports = response.getTransports ? response.getTransports() : [];
  } else {
    json.response.authenticatorData = bufferToBase64url(response.authenticatorData);
    json.response.signature = bufferToBase64url(response.signature);
    if (response.userHandle) json.response.userHandle = bufferToBase64url(response.userHandle);
  }
  return json;
}

function webAuthnAvailable() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function newCeremony() {
  if (state.ceremony) state.ceremony.abort();
  state.ceremony = new AbortController();
  return state.ceremony.signal;
}

// ---------------------------------------------------------------------------------------------------------------
// Views and small UI helpers

const TITLES = {
  "view-sign-in": "Sign in",
  "view-sign-up": "Create your account",
  "view-approval": "Check your phone",
  "view-account": "Your account",
};

function show(viewId) {
  for (const view of document.querySelectorAll("[data-view]")) view.hidden = view.id !== viewId;
  // A view shown anew starts without the messages of its last visit.
  for (const error of $(viewId).querySelectorAll(".field-error")) showError(error, "");
  for (const input of $(viewId).querySelectorAll("input[aria-invalid]")) markInvalid(input, false);
  document.title = `Touchstone — ${TITLES[viewId]}`;
  document.body.dataset.screen = viewId;
  const heading = $(viewId).querySelector("h1");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  window.scrollTo(0, 0);
}

function setBusy(button, busy) {
  button.disabled = busy;
  if (busy) button.setAttribute("aria-busy", "true");
  else button.removeAttribute("aria-busy");
}

function showError(element, text) {
  element.textContent = text;
  element.hidden = !text;
}

function showBanner(text) {
  $("banner-text").textContent = text;
  $("banner").hidden = false;
}

function hideBanner() {
  $("banner").hidden = true;
}

let toastTimer = null;
function toast(text) {
  const element = $("toast");
  element.textContent = text;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    element.hidden = true;
  }, 5000);
}

function markInvalid(input, invalid) {
  if (invalid) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

const dateFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });
const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

function relativeTime(iso) {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return "unknown";
  const seconds = Math.round((time - Date.now()) / 1000);
  const steps = [
    [60, "second"],
    [60, "minute"],
    [24, "hour"],
    [7, "day"],
  ];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return unit === "second" ? "just now" : relativeFormat.format(value, unit);
    value = Math.round(value / size);
  }
  return dateFormat.format(new Date(time));
}

function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

function browserName() {
  const agent = navigator.userAgent;
  const browser = /Edg\//.test(agent)
    ? "Edge"
    : /Firefox\//.test(agent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(agent)
        ? "Chrome"
        : /Safari\//.test(agent)
          ? "Safari"
          : "Browser";
  const system = /Android/.test(agent)
    ? "Android"
    : /iPhone|iPad/.test(agent)
      ? "iOS"
      : /Mac OS X/.test(agent)
        ? "macOS"
        : /Windows/.test(agent)
          ? "Windows"
          : /Linux/.test(agent)
            ? "Linux"
            : "";
  return system ? `${browser} on ${system}` : browser;
}

// ---------------------------------------------------------------------------------------------------------------
// Session: start, silent refresh, end

function startSession(session, how, username) {
  if (state.signIn) {
    continueToSite(session);
    return;
  }
  state.session = session;
  state.how = how;
  state.username = username || null;
  state.privileged = null;
  scheduleRefresh();
  hideBanner();
  $("toast").hidden = true;
  $("topbar-session").hidden = false;
  $("topbar-user").textContent = state.username ? `Signed in as ${state.username}` : "Signed in";
  renderAccount();
  show("view-account");
  loadLists();
  clearInterval(state.tickTimer);
  state.tickTimer = setInterval(renderPrivilege, 1000);
}

function scheduleRefresh() {
  clearTimeout(state.refreshTimer);
  const lifetime = state.session.expiresIn * 1000;
  const delay = Math.max(1000, Math.min(lifetime - REFRESH_MARGIN_MS, lifetime * 0.8));
  state.refreshTimer = setTimeout(() => {
    refreshSession().catch(() => {
      /* refreshSession has already ended the session and said why */
    });
  }, delay);
}

function refreshSession() {
  if (!state.refreshing) {
    const current = state.session;
    state.refreshing = (async () => {
      try {
        const fresh = await api("POST", "/v1/sessions/refresh", { body: { refreshToken: current.refreshToken } });
        if (state.session !== current) return; // signed out meanwhile
        state.session = fresh;
        scheduleRefresh();
        renderAccount();
      } catch (error) {
        if (error instanceof ApiError && (error.code === "network" || error.status >= 500)) {
          // Try again soon; the access token may still be valid.
          clearTimeout(state.refreshTimer);
          state.refreshTimer = setTimeout(() => refreshSession().catch(() => {}), 15_000);
          throw error;
        }
        endSession(messageFor(error));
        throw error;
      } finally {
        state.refreshing = null;
      }
    })();
  }
  return state.refreshing;
}

function clearSession() {
  clearTimeout(state.refreshTimer);
  clearInterval(state.tickTimer);
  state.session = null;
  state.how = null;
  state.username = null;
  state.privileged = null;
  state.refreshing = null;
  if (state.ceremony) state.ceremony.abort();
  $("topbar-session").hidden = true;
  $("passkey-list").replaceChildren();
  $("device-list").replaceChildren();
  $("session-list").replaceChildren();
  $("notice-list").replaceChildren();
  hideRecoveryCodes();
  const dialog = $("dialog-remove");
  if (dialog.open) dialog.close();
}

// The session ended without the user asking: say why, back to sign-in.
function endSession(reason) {
  clearSession();
  showSignIn();
  showBanner(reason);
}

async function signOut() {
  const session = state.session;
  clearSession();
  showSignIn();
  if (session) {
    try {
      await api("DELETE", "/v1/sessions/current", { token: session.accessToken });
      toast("You are signed out.");
    } catch (error) {
      // A token that had already expired needs no ending; anything else the user should know.
      if (error instanceof ApiError && error.status === 401) toast("You are signed out.");
      else showBanner(`You are signed out on this page, but the server could not be told: ${messageFor(error)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sign in: tabs

const TABS = ["passkey", "password", "device"];

function selectTab(name, focus = false) {
  for (const tab of TABS) {
    const button = $(`tab-${tab}`);
    const selected = tab === name;
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    $(`panel-${tab}`).hidden = !selected;
  }
  if (focus) $(`tab-${name}`).focus();
}

function showSignIn(tab) {
  stopApproval();
  if (tab) selectTab(tab);
  show("view-sign-in");
}

function setupTabs() {
  for (const name of TABS) {
    $(`tab-${name}`).addEventListener("click", () => selectTab(name));
    $(`tab-${name}`).addEventListener("keydown", (event) => {
      const index = TABS.indexOf(name);
      let next = null;
      if (event.key === "ArrowRight") next = TABS[(index + 1) % TABS.length];
      if (event.key === "ArrowLeft") next = TABS[(index + TABS.length - 1) % TABS.length];
      if (event.key === "Home") next = TABS[0];
      if (event.key === "End") next = TABS[TABS.length - 1];
      if (next) {
        event.preventDefault();
        selectTab(next, true);
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Signing in for another site (the OpenID Connect provider's sign-in page: `/?sign-in=REQUEST_ID`)

async function loadSignInRequest(requestId) {
  try {
    const request = await api("GET", `/oauth2/sign-in/${encodeURIComponent(requestId)}`);
    state.signIn = { requestId, clientName: request.clientName, requiredAcr: request.requiredAcr };
    $("sign-in-title").textContent = `Sign in to ${request.clientName}`;
    document.title = `Sign in to ${request.clientName} — Touchstone`;
    $("provider-context").hidden = false;
    $("sign-up-prompt").hidden = true;
    if (request.loginHint) {
      for (const id of ["passkey-username", "password-username", "device-username"]) $(id).value = request.loginHint;
    }
    $("storage-note").textContent =
      "Signing in here keeps this browser signed in to Touchstone (one cookie, for 12 hours at most), so that " +
      "sites that use Touchstone can sign you in again without asking.";
    if (request.requiredAcr === "aal2") {
      $("tab-password").hidden = true;
      $("sign-in-lead").textContent = "Use a passkey, or approve from a phone you have registered.";
      $("provider-context-text").textContent =
        `${request.clientName} asks for a passkey or an approval on your phone; a password is not enough.`;
    } else {
      $("provider-context-text").textContent = `${request.clientName} asks you to sign in with Touchstone.`;
    }
  } catch (error) {
    state.signIn = null;
    showBanner(
      error.code === "not_found"
        ? "This sign-in request has expired or was already used. Go back to the site and start again."
        : messageFor(error),
    );
  }
}

// The page's own session, made for this request, becomes the browser's sign-in at Touchstone (a cookie the
// server sets), and the browser goes back to the site with a code. The page's session is not kept.
async function continueToSite(session) {
  const { requestId, clientName } = state.signIn;
  try {
    const result = await api("POST", `/oauth2/sign-in/${encodeURIComponent(requestId)}/complete`, {
      token: session.accessToken,
      credentials: "same-origin",
    });
    await api("DELETE", "/v1/sessions/current", { token: session.accessToken }).catch(() => {});
    toast(`Signed in. Returning to ${clientName}…`);
    window.location.assign(result.redirectTo);
  } catch (error) {
    await api("DELETE", "/v1/sessions/current", { token: session.accessToken }).catch(() => {});
    if (error.code === "insufficient_authentication") {
      $("tab-password").hidden = true;
      $("sign-in-lead").textContent = "Use a passkey, or approve from a phone you have registered.";
      showSignIn("passkey");
      showBanner(`${clientName} asks for a passkey or an approval on your phone; a password is not enough.`);
    } else {
      showBanner(
        error.code === "not_found"
          ? "This sign-in request has expired or was already used. Go back to the site and start again."
          : messageFor(error),
      );
    }
  }
}

async function cancelSignInForSite() {
  const button = $("provider-cancel");
  setBusy(button, true);
  try {
    const result = await api("POST", `/oauth2/sign-in/${encodeURIComponent(state.signIn.requestId)}/cancel`);
    window.location.assign(result.redirectTo);
  } catch (error) {
    showBanner(
      error.code === "not_found"
        ? "This sign-in request has expired or was already used. Go back to the site and start again."
        : messageFor(error),
    );
  } finally {
    setBusy(button, false);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sign in with a passkey

async function signInWithPasskey(username, button, errorElement) {
  hideBanner();
  showError(errorElement, "");
  if (!webAuthnAvailable()) {
    showError(errorElement, "This browser does not support passkeys. Sign in with your password or from your phone.");
    return;
  }
  setBusy(button, true);
  try {
    const options = await api("POST", "/v1/webauthn/authentication/options", {
      body: username ? { username } : {},
    });
    const credential = await navigator.credentials.get({
      publicKey: requestOptions(options.publicKey),
      signal: newCeremony(),
    });
    if (!credential) throw new DOMException("No credential was returned.", "NotAllowedError");
    const session = await api("POST", "/v1/webauthn/authentication/verify", {
      body: { ceremonyId: options.ceremonyId, credential: credentialToJSON(credential), clientId: CLIENT_ID },
    });
    startSession(session, "passkey", username);
  } catch (error) {
    showError(errorElement, messageFor(error));
  } finally {
    setBusy(button, false);
  }
}

// Passkeys offered in the username field's autofill (conditional mediation), where the browser has it. Asked once
// when the page opens; any other passkey ceremony aborts it.
async function offerPasskeyAutofill() {
  if (typeof window.PublicKeyCredential?.isConditionalMediationAvailable !== "function") return;
  if (!(await PublicKeyCredential.isConditionalMediationAvailable().catch(() => false))) return;
  const signal = newCeremony();
  try {
    const options = await api("POST", "/v1/webauthn/authentication/options", { body: {} });
    const credential = await navigator.credentials.get({
      publicKey: requestOptions(options.publicKey),
      mediation: "conditional",
      signal,
    });
    if (!credential || signal.aborted) return;
    const session = await api("POST", "/v1/webauthn/authentication/verify", {
      body: { ceremonyId: options.ceremonyId, credential: credentialToJSON(credential), clientId: CLIENT_ID },
    });
    startSession(session, "passkey", null);
  } catch (error) {
    // Nothing picked (or the browser gave up): the autofill offer simply ends; the sign-in forms still work.
    if (signal.aborted || error instanceof DOMException) return;
    showError($("passkey-username-error"), messageFor(error));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sign in with a password

async function signInWithPassword(event) {
  event.preventDefault();
  hideBanner();
  const username = $("password-username").value.trim();
  const password = $("password-password").value;
  const errorElement = $("password-form-error");
  markInvalid($("password-username"), !username);
  markInvalid($("password-password"), !password);
  if (!username || !password) {
    showError(errorElement, "Enter your username and password.");
    return;
  }
  showError(errorElement, "");
  const button = $("password-submit");
  setBusy(button, true);
  try {
    const session = await api("POST", "/v1/sessions/password", { body: { clientId: CLIENT_ID, username, password } });
    $("password-password").value = "";
    startSession(session, "password", username);
  } catch (error) {
    if (error.code === "invalid_credentials") markInvalid($("password-password"), true);
    showError(errorElement, messageFor(error));
  } finally {
    setBusy(button, false);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sign in by approving on a phone (number matching)

async function startApproval(username) {
  hideBanner();
  const errorElement = $("device-form-error");
  showError(errorElement, "");
  const button = $("device-submit");
  setBusy(button, true);
  try {
    const started = await api("POST", "/v1/web-logins", { body: { username, clientId: CLIENT_ID } });
    stopApproval();
    const remaining = Date.parse(started.expiresAt) - Date.now();
    state.approval = {
      id: started.webLoginId,
      pollSecret: started.pollSecret,
      number: started.number,
      username,
      // The server's expiry, unless the two clocks disagree wildly.
      deadline: Date.now() + (remaining > 0 && remaining <= 180_000 ? remaining : 120_000),
      timer: null,
      failures: 0,
    };
    $("approval-number").textContent = String(started.number);
    $("approval-username").textContent = username;
    $("approval-pending").hidden = false;
    $("approval-ended").hidden = true;
    $("approval-retry").hidden = true;
    $("approval-cancel").textContent = "Use another way";
    renderCountdown();
    show("view-approval");
    scheduleApprovalPoll();
  } catch (error) {
    showError(errorElement, messageFor(error));
  } finally {
    setBusy(button, false);
  }
}

function renderCountdown() {
  const approval = state.approval;
  if (!approval) return;
  const left = approval.deadline - Date.now();
  $("approval-countdown").textContent =
    approval.failures > 0 ? "Reconnecting to the server…" : `Waiting for your phone · ${clock(left)} left`;
}

function scheduleApprovalPoll() {
  const approval = state.approval;
  approval.timer = setTimeout(() => pollApproval(approval), POLL_INTERVAL_MS);
}

async function pollApproval(approval) {
  if (state.approval !== approval) return;
  let answer;
  try {
    answer = await api("GET", `/v1/web-logins/${encodeURIComponent(approval.id)}`, {
      headers: { "X-Poll-Secret": approval.pollSecret },
    });
    approval.failures = 0;
  } catch (error) {
    if (state.approval !== approval) return;
    if (error.code === "network" || error.status >= 500 || error.status === 429) {
      approval.failures += 1;
      if (Date.now() < approval.deadline + 10_000) {
        renderCountdown();
        scheduleApprovalPoll();
        return;
      }
    }
    endApproval("bad", messageFor(error, { not_found: "The server no longer knows this sign-in request. Send a new one." }));
    return;
  }
  if (state.approval !== approval) return;
  switch (answer.status) {
    case "pending":
      if (Date.now() > approval.deadline + 10_000) {
        endApproval("neutral", "The request expired before it was approved on your phone.");
        return;
      }
      renderCountdown();
      scheduleApprovalPoll();
      return;
    case "approved":
      if (answer.session) {
        stopApproval();
        startSession(answer.session, "device", approval.username);
      } else {
        endApproval("neutral", "This sign-in was already completed in another window. Send a new request to sign in here.");
      }
      return;
    case "denied":
      endApproval(
        "bad",
        "The sign-in was denied on your phone, or a different number was picked. Nothing was signed in. If you did not ask for this, someone may know your username.",
      );
      return;
    case "expired":
      endApproval("neutral", "The request expired before it was approved on your phone.");
      return;
    default:
      endApproval("bad", `The server answered with an unknown status (${answer.status}).`);
  }
}

function endApproval(kind, message) {
  if (state.approval) clearTimeout(state.approval.timer);
  state.approval = { ...state.approval, timer: null, ended: true };
  $("approval-pending").hidden = true;
  $("approval-ended").hidden = false;
  const icon = $("approval-icon");
  icon.className = `status-icon ${kind}`;
  icon.textContent = kind === "bad" ? "✕" : "⏱";
  $("approval-message").textContent = message;
  $("approval-retry").hidden = false;
  $("approval-cancel").textContent = "Back to sign in";
  $("approval-retry").focus();
}

function stopApproval() {
  if (state.approval) clearTimeout(state.approval.timer);
  state.approval = null;
}

// ---------------------------------------------------------------------------------------------------------------
// Sign up

async function signUp(event) {
  event.preventDefault();
  hideBanner();
  const username = $("sign-up-username").value.trim();
  const password = $("sign-up-password").value;
  const errorElement = $("sign-up-error");
  markInvalid($("sign-up-username"), !username);
  markInvalid($("sign-up-password"), password.length < 8);
  if (!username) {
    showError(errorElement, "Choose a username.");
    return;
  }
  if (password.length < 8) {
    showError(errorElement, SERVER_MESSAGES.weak_password);
    return;
  }
  showError(errorElement, "");
  const button = $("sign-up-submit");
  setBusy(button, true);
  try {
    await api("POST", "/v1/accounts", { body: { username, password } });
    let session;
    try {
      session = await api("POST", "/v1/sessions/password", { body: { clientId: CLIENT_ID, username, password } });
    } catch (error) {
      $("password-username").value = username;
      showSignIn("password");
      showBanner(`Your account was created, but signing in failed: ${messageFor(error)}`);
      return;
    }
    $("sign-up-password").value = "";
    startSession(session, "password", username);
    toast("Welcome! Add a passkey so you can sign in without your password.");
  } catch (error) {
    if (error.code === "username_taken") markInvalid($("sign-up-username"), true);
    if (error.code === "weak_password") markInvalid($("sign-up-password"), true);
    showError(errorElement, messageFor(error));
  } finally {
    setBusy(button, false);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Account page

const AMR_NAMES = {
  pwd: "Password",
  passkey: "Passkey",
  bio: "Fingerprint",
  pin: "App PIN",
  legacy: "Legacy app key",
};

function methodText() {
  const session = state.session;
  const factors = (session.amr || []).map((value) => AMR_NAMES[value] || value).join(" + ") || "Unknown";
  if (state.how === "device") return `Approved on your phone (${factors.toLowerCase()})`;
  return factors;
}

function strong() {
  return state.session && state.session.acr === "aal2";
}

function privilegedToken() {
  const privileged = state.privileged;
  if (privileged && privileged.expiresAt - Date.now() > 5000) return privileged.token;
  return null;
}

function renderAccount() {
  const session = state.session;
  if (!session) return;
  $("account-who").textContent = state.username
    ? `Signed in as ${state.username}`
    : `Signed in with a passkey · account ${session.userId.slice(0, 8)}`;
  $("session-method").textContent = methodText();
  $("session-assurance").textContent = strong() ? "Strong · two factors (aal2)" : "Basic · password only (aal1)";
  $("aal1-notice").hidden = strong();
  renderPrivilege();
}

function renderPrivilege() {
  if (!state.session) return;
  const element = $("session-privilege");
  if (!strong()) {
    element.textContent = "Not available with a password-only sign-in";
    return;
  }
  const token = privilegedToken();
  element.textContent = token
    ? `Unlocked · ${clock(state.privileged.expiresAt - Date.now())} left`
    : "Ask for your password first";
}

const ICONS = {
  passkey:
    "M7 14a5 5 0 1 1 4.9-6H22v4h-2v3h-3v-3h-5.1A5 5 0 0 1 7 14zm0-7a2 2 0 1 0 0 4 2 2 0 0 0 0-4z",
  device:
    "M8 2h8a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm0 3v13h8V5H8zm4 14.2a1 1 0 1 0 0 2 1 1 0 0 0 0-2z",
  session:
    "M3 4h18a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1h-7v2h3v2H7v-2h3v-2H3a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zm1 2v9h16V6H4z",
};

function iconElement(kind) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[kind]);
  svg.append(path);
  return svg;
}

function badge(text, neutral = false) {
  const element = document.createElement("span");
  element.className = neutral ? "badge neutral" : "badge";
  element.textContent = text;
  return element;
}

function itemElement(kind, id, name, meta, badges, actionLabel = "Remove") {
  const item = $("item-template").content.firstElementChild.cloneNode(true);
  item.dataset.id = id;
  item.dataset.kind = kind;
  item.querySelector(".item-icon").append(iconElement(kind));
  item.querySelector(".item-name").textContent = name;
  for (const element of badges) item.querySelector(".item-title").append(element);
  item.querySelector(".item-meta").textContent = meta;
  const remove = item.querySelector(".item-remove");
  remove.textContent = actionLabel;
  remove.setAttribute("aria-label", `${actionLabel} ${name}`);
  remove.addEventListener("click", () => openRemove({ kind, id, name }));
  return item;
}

async function loadLists() {
  await Promise.all([loadProfile(), loadPasskeys(), loadDevices(), loadSessions(), loadNotices()]);
}

/** Who is signed in: a usernameless passkey sign-in learns the username here. */
async function loadProfile() {
  try {
    const profile = await authed("GET", "/v1/account");
    if (!state.session || state.session.userId !== profile.userId) return;
    state.username = profile.username;
    $("topbar-user").textContent = `Signed in as ${state.username}`;
    renderAccount();
    renderRecoveryRemaining(profile.recoveryCodesRemaining);
  } catch {
    // The account page still works without the name; renderAccount shows the account id instead.
  }
}

async function loadPasskeys() {
  try {
    const answer = await authed("GET", "/v1/webauthn/credentials");
    if (!state.session) return;
    showError($("passkeys-error"), "");
    const items = answer.credentials.map((credential) => {
      const used = credential.lastUsedAt ? `last used ${relativeTime(credential.lastUsedAt)}` : "never used";
      const badges = [];
      if (credential.backedUp) badges.push(badge("Synced"));
      else if (!credential.backupEligible) badges.push(badge("This device only", true));
      return itemElement(
        "passkey",
        credential.credentialId,
        credential.name || "Passkey",
        `Added ${dateFormat.format(new Date(credential.createdAt))} · ${used}`,
        badges,
      );
    });
    $("passkey-list").replaceChildren(...items);
    $("passkeys-empty").hidden = items.length > 0;
  } catch (error) {
    if (!state.session) return;
    $("passkeys-empty").hidden = true;
    showError(
      $("passkeys-error"),
      `Your passkeys could not be loaded. ${messageFor(error, { not_found: "This server does not offer passkeys." })}`,
    );
  }
}

async function loadDevices() {
  try {
    const answer = await authed("GET", "/v1/devices");
    if (!state.session) return;
    showError($("devices-error"), "");
    const items = answer.devices.map((device) => {
      const badges = [device.biometric ? badge("Fingerprint") : badge("PIN only", true)];
      if (device.current) badges.push(badge("This device", true));
      const used = device.lastUsedAt ? `last used ${relativeTime(device.lastUsedAt)}` : "never used";
      const meta = [device.model, `added ${dateFormat.format(new Date(device.createdAt))}`, used]
        .filter(Boolean)
        .join(" · ");
      return itemElement("device", device.deviceId, device.name || "Device", meta, badges);
    });
    $("device-list").replaceChildren(...items);
    $("devices-empty").hidden = items.length > 0;
  } catch (error) {
    if (!state.session) return;
    $("devices-empty").hidden = true;
    showError($("devices-error"), `Your devices could not be loaded. ${messageFor(error)}`);
  }
}

// The session id (`sid`) of an access token, to tell this session in the list.
function sessionIdOf(session) {
  try {
    const payload = session.accessToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(payload)).sid;
  } catch {
    return null;
  }
}

function renderRecoveryRemaining(remaining) {
  const count = Number.isInteger(remaining) ? remaining : 0;
  $("recovery-remaining").textContent =
    count === 0
      ? "You have no unused recovery codes."
      : `${count} unused recovery code${count === 1 ? "" : "s"} left.`;
}

const CLIENT_NAMES = { [CLIENT_ID]: "Touchstone account page" };

async function loadSessions() {
  try {
    const answer = await authed("GET", "/v1/sessions");
    if (!state.session) return;
    showError($("sessions-error"), "");
    const items = answer.sessions.map((session) => {
      const factors = (session.amr || []).map((value) => AMR_NAMES[value] || value).join(" + ");
      const where = session.deviceId ? "Registered device" : CLIENT_NAMES[session.clientId] || session.clientId;
      const meta = [
        factors,
        session.ip ? `from ${session.ip}` : null,
        `signed in ${relativeTime(session.createdAt)}`,
        `active ${relativeTime(session.lastActivityAt)}`,
      ]
        .filter(Boolean)
        .join(" · ");
      const badges = session.current ? [badge("This session", true)] : [];
      return itemElement("session", session.sessionId, where, meta, badges, "Sign out");
    });
    $("session-list").replaceChildren(...items);
  } catch (error) {
    if (!state.session) return;
    showError($("sessions-error"), `Your sessions could not be loaded. ${messageFor(error)}`);
  }
}

const NOTICE_TEXT = {
  device_added: (d) => `A device was added: ${d.deviceName || "unnamed device"}.`,
  device_removed: (d) => `A device was removed: ${d.deviceName || "unnamed device"}.`,
  password_changed: () => "Your password was changed.",
  pin_changed: (d) => `The app PIN of ${d.deviceName || "a device"} was changed.`,
  recovery_codes_created: () => "New recovery codes were created; the earlier ones no longer work.",
  recovery_code_used: (d) => `A recovery code was used to add ${d.deviceName || "a device"}.`,
  passkey_added: (d) => `A passkey was added: ${d.passkeyName || "Passkey"}.`,
  passkey_removed: (d) => `A passkey was removed: ${d.passkeyName || "Passkey"}.`,
  sessions_ended: (d) => (d.deviceName ? `A session of ${d.deviceName} was ended.` : "A session was ended."),
};

async function loadNotices() {
  try {
    const answer = await authed("GET", "/v1/account/notices");
    if (!state.session) return;
    showError($("notices-error"), "");
    const items = answer.notices
      .slice()
      .reverse()
      .map((notice) => {
        const item = document.createElement("li");
        item.dataset.event = notice.event;
        const text = NOTICE_TEXT[notice.event];
        item.textContent = text ? text(notice.detail || {}) : notice.event;
        const time = document.createElement("span");
        time.className = "notice-time";
        time.textContent = [relativeTime(notice.at), notice.detail && notice.detail.ip ? `from ${notice.detail.ip}` : null]
          .filter(Boolean)
          .join(" · ");
        item.append(time);
        return item;
      });
    $("notice-list").replaceChildren(...items);
    $("notices-empty").hidden = items.length > 0;
  } catch (error) {
    if (!state.session) return;
    $("notices-empty").hidden = true;
    showError($("notices-error"), `The security notices could not be loaded. ${messageFor(error)}`);
  }
}

// Recovery codes: created behind a step-up, shown once, copied or downloaded as text

function showRecoveryCodes(codes) {
  state.recoveryCodes = codes;
  const items = codes.map((code) => {
    const item = document.createElement("li");
    item.textContent = code;
    return item;
  });
  $("recovery-code-list").replaceChildren(...items);
  $("recovery-codes").hidden = false;
  renderRecoveryRemaining(codes.length);
}

function hideRecoveryCodes() {
  state.recoveryCodes = null;
  $("recovery-code-list").replaceChildren();
  $("recovery-codes").hidden = true;
}

function recoveryCodesText() {
  const who = state.username ? ` for ${state.username}` : "";
  return `Touchstone recovery codes${who} (${window.location.origin})\nEach code works once.\n\n${(state.recoveryCodes || []).join("\n")}\n`;
}

async function copyRecoveryCodes() {
  if (!state.recoveryCodes) return;
  try {
    await navigator.clipboard.writeText(recoveryCodesText());
    toast("Recovery codes copied.");
  } catch {
    showError($("recovery-error"), "The browser did not allow copying; select the codes and copy them, or download them.");
  }
}

function downloadRecoveryCodes() {
  if (!state.recoveryCodes) return;
  const url = URL.createObjectURL(new Blob([recoveryCodesText()], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "touchstone-recovery-codes.txt";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Add a passkey

function openAddPasskey() {
  if (!webAuthnAvailable()) {
    showError($("passkeys-error"), "This browser does not support passkeys.");
    return;
  }
  $("passkey-name").value = browserName();
  showError($("add-passkey-error"), "");
  $("form-add-passkey").hidden = false;
  $("add-passkey").hidden = true;
  $("passkey-name").focus();
  $("passkey-name").select();
}

function closeAddPasskey() {
  $("form-add-passkey").hidden = true;
  $("add-passkey").hidden = false;
}

async function addPasskey(event) {
  event.preventDefault();
  const errorElement = $("add-passkey-error");
  const name = $("passkey-name").value.trim();
  if (!name) {
    markInvalid($("passkey-name"), true);
    showError(errorElement, "Give the passkey a name, for example the device it is on.");
    return;
  }
  markInvalid($("passkey-name"), false);
  showError(errorElement, "");
  const button = $("add-passkey-submit");
  setBusy(button, true);
  try {
    const options = await authed("POST", "/v1/webauthn/registration/options", {});
    const credential = await navigator.credentials.create({
      publicKey: creationOptions(options.publicKey),
      signal: newCeremony(),
    });
    if (!credential) throw new DOMException("No credential was returned.", "NotAllowedError");
    await authed("POST", "/v1/webauthn/registration/verify", {
      ceremonyId: options.ceremonyId,
      credential: credentialToJSON(credential),
      name,
    });
    closeAddPasskey();
    toast(`Passkey “${name}” added. Next time, sign in with it.`);
    await loadPasskeys();
  } catch (error) {
    showError(
      errorElement,
      messageFor(error, {
        creating: true,
        insufficient_authentication:
          "A password-only sign-in can add only your first passkey. Sign out and sign in with your passkey or from your phone to add another.",
        credential_exists: "This passkey is already registered to your account.",
      }),
    );
  } finally {
    setBusy(button, false);
  }
}

// Remove a passkey or a device, behind a step-up

const REMOVE_TEXT = {
  passkey: (name) => `You will no longer be able to sign in with the passkey “${name}”. It stays on the device until you delete it there.`,
  device: (name) => `“${name}” will be signed out and can no longer approve sign-ins or log in. To use it again, register it again.`,
  session: (name) => `This session (${name}) will be signed out at once.`,
  "recovery-codes": () => "You get ten new codes, shown once. Any earlier codes stop working.",
};

const REMOVE_TITLES = {
  passkey: "Remove this passkey?",
  device: "Remove this device?",
  session: "Sign out this session?",
  "recovery-codes": "Create new recovery codes?",
};

const REMOVE_BUTTONS = { passkey: "Remove", device: "Remove", session: "Sign out", "recovery-codes": "Create codes" };

// Tells the browser's passkey manager that a passkey is gone here, so it stops offering it (WebAuthn Signal API,
// where the browser has it).
function signalRemovedPasskey(credentialId) {
  if (typeof window.PublicKeyCredential?.signalUnknownCredential !== "function") return;
  PublicKeyCredential.signalUnknownCredential({ rpId: RP_ID, credentialId }).catch(() => {});
}

function openRemove(target) {
  // This very session signs out at once, as the top bar's button does.
  if (target.kind === "session" && state.session && target.id === sessionIdOf(state.session)) {
    signOut();
    return;
  }
  state.pendingRemoval = target;
  const dialog = $("dialog-remove");
  $("remove-title").textContent = REMOVE_TITLES[target.kind];
  $("remove-submit").textContent = REMOVE_BUTTONS[target.kind];
  showError($("remove-error"), "");
  $("remove-password").value = "";
  markInvalid($("remove-password"), false);
  if (!strong()) {
    $("remove-text").textContent = SERVER_MESSAGES.insufficient_authentication;
    $("remove-step-up").hidden = true;
    $("remove-submit").hidden = true;
    $("remove-cancel").textContent = "Close";
  } else {
    $("remove-text").textContent = REMOVE_TEXT[target.kind](target.name);
    $("remove-step-up").hidden = privilegedToken() !== null;
    $("remove-submit").hidden = false;
    $("remove-cancel").textContent = "Cancel";
  }
  dialog.showModal();
  if (!$("remove-step-up").hidden) $("remove-password").focus();
  else if (!$("remove-submit").hidden) $("remove-submit").focus();
}

async function confirmRemove(event) {
  event.preventDefault();
  const target = state.pendingRemoval;
  if (!target) return;
  const errorElement = $("remove-error");
  const button = $("remove-submit");
  showError(errorElement, "");
  if (!privilegedToken()) {
    $("remove-step-up").hidden = false;
    const password = $("remove-password").value;
    if (!password) {
      markInvalid($("remove-password"), true);
      showError(errorElement, "Enter your password to confirm.");
      $("remove-password").focus();
      return;
    }
    setBusy(button, true);
    try {
      const granted = await authed("POST", "/v1/step-up", { password });
      state.privileged = { token: granted.accessToken, expiresAt: Date.now() + granted.expiresIn * 1000 };
      $("remove-password").value = "";
      renderPrivilege();
    } catch (error) {
      setBusy(button, false);
      if (error.code === "invalid_credentials") markInvalid($("remove-password"), true);
      showError(errorElement, messageFor(error, { invalid_credentials: "That password is not right. Try again." }));
      return;
    }
  }
  setBusy(button, true);
  const path = {
    passkey: `/v1/webauthn/credentials/${encodeURIComponent(target.id)}`,
    device: `/v1/devices/${encodeURIComponent(target.id)}`,
    session: `/v1/sessions/${encodeURIComponent(target.id)}`,
    "recovery-codes": "/v1/account/recovery-codes",
  }[target.kind];
  try {
    if (target.kind === "recovery-codes") {
      const answer = await api("POST", path, { token: privilegedToken() });
      $("dialog-remove").close();
      state.pendingRemoval = null;
      showRecoveryCodes(answer.codes);
      loadNotices();
      return;
    }
    await api("DELETE", path, { token: privilegedToken() });
    $("dialog-remove").close();
    state.pendingRemoval = null;
    if (target.kind === "session") {
      toast("That session is signed out.");
      await loadSessions();
      loadNotices();
      return;
    }
    toast(`${target.kind === "passkey" ? "Passkey" : "Device"} “${target.name}” removed.`);
    loadNotices();
    if (target.kind === "passkey") {
      signalRemovedPasskey(target.id);
      await loadPasskeys();
    } else {
      await loadDevices();
      // A sign-in approved on a phone lives only as long as that phone is an active device.
      if (!state.session) showBanner(`This sign-in was approved on “${target.name}”, so it ended with it. Sign in again.`);
    }
  } catch (error) {
    if (error.code === "step_up_required" || (error.status === 401 && error.code === "unauthorized")) {
      // The privileged window closed: ask again.
      state.privileged = null;
      renderPrivilege();
      $("remove-step-up").hidden = false;
      showError(errorElement, "Your confirmation expired. Enter your password again.");
      $("remove-password").focus();
    } else if (target.kind === "session" && error.code === "not_found") {
      showError(errorElement, "That session has already ended.");
      loadSessions();
    } else if (error.code === "not_found" || error.code === "device_not_found") {
      showError(
        errorElement,
        target.kind === "passkey" ? "That passkey is no longer registered." : SERVER_MESSAGES.device_not_found,
      );
      if (target.kind === "passkey") loadPasskeys();
      else loadDevices();
    } else {
      showError(errorElement, messageFor(error));
    }
  } finally {
    setBusy(button, false);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Wiring

function wire() {
  setupTabs();
  $("passkey-any").addEventListener("click", () =>
    signInWithPasskey(null, $("passkey-any"), $("passkey-username-error")),
  );
  $("form-passkey").addEventListener("submit", (event) => {
    event.preventDefault();
    const username = $("passkey-username").value.trim();
    markInvalid($("passkey-username"), !username);
    if (!username) {
      showError($("passkey-username-error"), "Enter your username, or use “Sign in with a passkey” above.");
      return;
    }
    signInWithPasskey(username, $("passkey-named"), $("passkey-username-error"));
  });
  $("form-password").addEventListener("submit", signInWithPassword);
  $("form-device").addEventListener("submit", (event) => {
    event.preventDefault();
    const username = $("device-username").value.trim();
    markInvalid($("device-username"), !username);
    if (!username) {
      showError($("device-form-error"), "Enter your username.");
      return;
    }
    startApproval(username);
  });
  $("approval-cancel").addEventListener("click", () => showSignIn("device"));
  $("approval-retry").addEventListener("click", () => {
    const username = state.approval && state.approval.username;
    if (username) startApproval(username);
    else showSignIn("device");
  });
  $("go-sign-up").addEventListener("click", () => {
    hideBanner();
    stopApproval();
    show("view-sign-up");
  });
  $("go-sign-in").addEventListener("click", () => {
    hideBanner();
    showSignIn();
  });
  $("form-sign-up").addEventListener("submit", signUp);
  $("sign-out").addEventListener("click", signOut);
  $("add-passkey").addEventListener("click", openAddPasskey);
  $("add-passkey-cancel").addEventListener("click", closeAddPasskey);
  $("form-add-passkey").addEventListener("submit", addPasskey);
  $("form-remove").addEventListener("submit", confirmRemove);
  $("create-recovery-codes").addEventListener("click", () =>
    openRemove({ kind: "recovery-codes", id: "recovery-codes", name: "recovery codes" }),
  );
  $("copy-recovery-codes").addEventListener("click", copyRecoveryCodes);
  $("download-recovery-codes").addEventListener("click", downloadRecoveryCodes);
  $("hide-recovery-codes").addEventListener("click", hideRecoveryCodes);
  $("remove-cancel").addEventListener("click", () => {
    state.pendingRemoval = null;
    $("dialog-remove").close();
  });
  $("banner-close").addEventListener("click", hideBanner);
  $("provider-cancel").addEventListener("click", cancelSignInForSite);
  for (const input of document.querySelectorAll("input")) {
    input.addEventListener("input", () => markInvalid(input, false));
  }
}

async function boot() {
  wire();
  const requestId = new URLSearchParams(window.location.search).get("sign-in");
  if (requestId) await loadSignInRequest(requestId);
  $("boot-note").hidden = true;
  if (!webAuthnAvailable()) {
    for (const id of ["passkey-any", "passkey-named", "add-passkey"]) $(id).disabled = true;
    showSignIn("password");
    showError($("passkey-username-error"), "This browser does not support passkeys. Use your password or your phone.");
  } else {
    showSignIn("passkey");
    offerPasskeyAutofill();
  }
  document.body.dataset.ready = "true";
}

boot();
