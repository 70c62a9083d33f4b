// The account page: who is signed in and how, the passkeys (and adding one), devices, sessions and security notices.

import { CLIENT_ID } from "./config.js";
import * as endpoints from "./endpoints.js";
import { messageFor } from "./messages.js";
import { renderRecoveryRemaining } from "./recovery.js";
import {
  authed,
  currentSession,
  privilegeEndsAt,
  privilegedToken,
  setUsername,
  signInMethod,
  strong,
  username,
} from "./session.js";
import { $, clock, dateFormat, markInvalid, relativeTime, setBusy, show, showError, toast } from "./ui.js";
import { creationOptions, credentialToJSON, newCeremony, webAuthnAvailable } from "./webauthn.js";

const AMR_NAMES = {
  pwd: "Password",
  passkey: "Passkey",
  bio: "Fingerprint",
  pin: "App PIN",
  legacy: "Legacy app key",
};

function factorsText(amr) {
  return (amr || []).map((value) => AMR_NAMES[value] || value).join(" + ");
}

function methodText() {
  const factors = factorsText(currentSession().amr) || "Unknown";
  if (signInMethod() === "device") return `Approved on your phone (${factors.toLowerCase()})`;
  return factors;
}

/** The session card and the account's heading, from the current session. */
export function renderAccount() {
  const session = currentSession();
  if (!session) return;
  $("account-who").textContent = username()
    ? `Signed in as ${username()}`
    : `Signed in with a passkey · account ${session.userId.slice(0, 8)}`;
  $("session-method").textContent = methodText();
  $("session-assurance").textContent = strong() ? "Strong · two factors (aal2)" : "Basic · password only (aal1)";
  $("aal1-notice").hidden = strong();
  renderPrivilege();
}

/** Whether privileged actions are unlocked, and for how long. */
export function renderPrivilege() {
  if (!currentSession()) return;
  const element = $("session-privilege");
  if (!strong()) {
    element.textContent = "Not available with a password-only sign-in";
    return;
  }
  element.textContent = privilegedToken()
    ? `Unlocked · ${clock(privilegeEndsAt() - Date.now())} left`
    : "Ask for your password first";
}

// The timer that counts the privileged window down, while the account page is open.
let tickTimer = null;

/** The account page of the session just begun: shown, and its lists loaded. */
export function openAccount() {
  $("topbar-session").hidden = false;
  $("topbar-user").textContent = username() ? `Signed in as ${username()}` : "Signed in";
  renderAccount();
  show("view-account");
  loadLists();
  clearInterval(tickTimer);
  tickTimer = setInterval(renderPrivilege, 1000);
}

/** Empties the account page of a session that has ended. */
export function closeAccount() {
  clearInterval(tickTimer);
  $("topbar-session").hidden = true;
  $("passkey-list").replaceChildren();
  $("device-list").replaceChildren();
  $("session-list").replaceChildren();
  $("notice-list").replaceChildren();
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

// A row of a list; its button (removal.js listens on the lists) names the action and the item.
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
  return item;
}

async function loadLists() {
  await Promise.all([loadProfile(), loadPasskeys(), loadDevices(), loadSessions(), loadNotices()]);
}

/** Who is signed in: a usernameless passkey sign-in learns the username here. */
async function loadProfile() {
  try {
    const profile = await authed(endpoints.account);
    if (!currentSession() || currentSession().userId !== profile.userId) return;
    setUsername(profile.username);
    $("topbar-user").textContent = `Signed in as ${username()}`;
    renderAccount();
    renderRecoveryRemaining(profile.recoveryCodesRemaining);
  } catch {
    // The account page still works without the name; renderAccount shows the account id instead.
  }
}

/**
 * Fills the list `name` (`#NAME-list`, beside `#NAMEs-empty` and `#NAMEs-error`) with the items `toItems` makes of
 * `endpoint`'s answer, or says that `what` could not be loaded (`overrides`: words of its own for some codes).
 */
async function loadList(name, endpoint, toItems, what, overrides = {}) {
  const empty = $(`${name}s-empty`);
  try {
    const answer = await authed(endpoint);
    if (!currentSession()) return;
    showError($(`${name}s-error`), "");
    const items = toItems(answer);
    $(`${name}-list`).replaceChildren(...items);
    if (empty) empty.hidden = items.length > 0;
  } catch (error) {
    if (!currentSession()) return;
    if (empty) empty.hidden = true;
    showError($(`${name}s-error`), `${what} could not be loaded. ${messageFor(error, overrides)}`);
  }
}

function passkeyItem(credential) {
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
}

export function loadPasskeys() {
  return loadList("passkey", endpoints.passkeys, (answer) => answer.credentials.map(passkeyItem), "Your passkeys", {
    not_found: "This server does not offer passkeys.",
  });
}

function deviceItem(device) {
  const badges = [device.biometric ? badge("Fingerprint") : badge("PIN only", true)];
  if (device.current) badges.push(badge("This device", true));
  const used = device.lastUsedAt ? `last used ${relativeTime(device.lastUsedAt)}` : "never used";
  const meta = [device.model, `added ${dateFormat.format(new Date(device.createdAt))}`, used].filter(Boolean).join(" · ");
  return itemElement("device", device.deviceId, device.name || "Device", meta, badges);
}

export function loadDevices() {
  return loadList("device", endpoints.devices, (answer) => answer.devices.map(deviceItem), "Your devices");
}

const CLIENT_NAMES = { [CLIENT_ID]: "Touchstone account page" };

function sessionItem(session) {
  const where = session.deviceId ? "Registered device" : CLIENT_NAMES[session.clientId] || session.clientId;
  const meta = [
    factorsText(session.amr),
    session.ip ? `from ${session.ip}` : null,
    `signed in ${relativeTime(session.createdAt)}`,
    `active ${relativeTime(session.lastActivityAt)}`,
  ]
    .filter(Boolean)
    .join(" · ");
  const badges = session.current ? [badge("This session", true)] : [];
  return itemElement("session", session.sessionId, where, meta, badges, "Sign out");
}

export function loadSessions() {
  return loadList("session", endpoints.sessions, (answer) => answer.sessions.map(sessionItem), "Your sessions");
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

function noticeItem(notice) {
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
}

export function loadNotices() {
  return loadList(
    "notice",
    endpoints.accountNotices,
    (answer) => answer.notices.slice().reverse().map(noticeItem),
    "The security notices",
  );
}

// Add a passkey

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
    const options = await authed(endpoints.passkeyRegistrationOptions, { body: {} });
    const credential = await navigator.credentials.create({
      publicKey: creationOptions(options.publicKey),
      signal: newCeremony(),
    });
    if (!credential) throw new DOMException("No credential was returned.", "NotAllowedError");
    await authed(endpoints.passkeyRegistrationVerify, {
      body: { ceremonyId: options.ceremonyId, credential: credentialToJSON(credential), name },
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

export function wireAccount() {
  $("add-passkey").addEventListener("click", openAddPasskey);
  $("add-passkey-cancel").addEventListener("click", closeAddPasskey);
  $("form-add-passkey").addEventListener("submit", addPasskey);
}
