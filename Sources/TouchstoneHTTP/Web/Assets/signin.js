// Sign in: the tabs, a passkey (by username, usernameless, or offered in the username field's autofill), and the
// password. Each sign-in hands its session to `signedIn(session, how, username)`, which app.js passes in.

import { call } from "./api.js";
import { stopApproval } from "./approval.js";
import { CLIENT_ID } from "./config.js";
import * as endpoints from "./endpoints.js";
import { messageFor } from "./messages.js";
import { $, hideBanner, markInvalid, setBusy, show, showError } from "./ui.js";
import { credentialToJSON, newCeremony, requestOptions, webAuthnAvailable } from "./webauthn.js";

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

/** The sign-in view, on `tab` when given; a phone approval in progress is given up. */
export function showSignIn(tab) {
  stopApproval();
  if (tab) selectTab(tab);
  show("view-sign-in");
}

/** Only the passkey and the phone: a site asks for more than a password. */
export function hidePasswordTab() {
  $("tab-password").hidden = true;
  $("sign-in-lead").textContent = "Use a passkey, or approve from a phone you have registered.";
}

/** Only the phone: a site asks for a payment, which only a phone approval grants. */
export function showPhoneOnly() {
  $("tab-password").hidden = true;
  $("tab-passkey").hidden = true;
  selectTab("device");
  $("sign-in-lead").textContent = "Approve from a phone you have registered: it shows what you approve.";
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

// Sign in with a passkey

async function verifyPasskey(options, credential) {
  return call(endpoints.passkeyAuthenticationVerify, {
    body: { ceremonyId: options.ceremonyId, credential: credentialToJSON(credential), clientId: CLIENT_ID },
  });
}

async function signInWithPasskey(username, button, errorElement, signedIn) {
  hideBanner();
  showError(errorElement, "");
  if (!webAuthnAvailable()) {
    showError(errorElement, "This browser does not support passkeys. Sign in with your password or from your phone.");
    return;
  }
  setBusy(button, true);
  try {
    const options = await call(endpoints.passkeyAuthenticationOptions, { body: username ? { username } : {} });
    const credential = await navigator.credentials.get({
      publicKey: requestOptions(options.publicKey),
      signal: newCeremony(),
    });
    if (!credential) throw new DOMException("No credential was returned.", "NotAllowedError");
    signedIn(await verifyPasskey(options, credential), "passkey", username);
  } catch (error) {
    showError(errorElement, messageFor(error));
  } finally {
    setBusy(button, false);
  }
}

/**
 * Passkeys offered in the username field's autofill (conditional mediation), where the browser has it. Asked once
 * when the page opens; any other passkey ceremony aborts it.
 */
export async function offerPasskeyAutofill(signedIn) {
  if (typeof window.PublicKeyCredential?.isConditionalMediationAvailable !== "function") return;
  if (!(await PublicKeyCredential.isConditionalMediationAvailable().catch(() => false))) return;
  const signal = newCeremony();
  try {
    const options = await call(endpoints.passkeyAuthenticationOptions, { body: {} });
    const credential = await navigator.credentials.get({
      publicKey: requestOptions(options.publicKey),
      mediation: "conditional",
      signal,
    });
    if (!credential || signal.aborted) return;
    signedIn(await verifyPasskey(options, credential), "passkey", null);
  } catch (error) {
    // Nothing picked (or the browser gave up): the autofill offer simply ends; the sign-in forms still work.
    if (signal.aborted || error instanceof DOMException) return;
    showError($("passkey-username-error"), messageFor(error));
  }
}

// Sign in with a password

async function signInWithPassword(event, signedIn) {
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
    const session = await call(endpoints.passwordSession, { body: { clientId: CLIENT_ID, username, password } });
    $("password-password").value = "";
    signedIn(session, "password", username);
  } catch (error) {
    if (error.code === "invalid_credentials") markInvalid($("password-password"), true);
    showError(errorElement, messageFor(error));
  } finally {
    setBusy(button, false);
  }
}

/** The tabs and the passkey and password forms; a session they get goes to `signedIn`. */
export function wireSignIn({ signedIn }) {
  setupTabs();
  $("passkey-any").addEventListener("click", () =>
    signInWithPasskey(null, $("passkey-any"), $("passkey-username-error"), signedIn),
  );
  $("form-passkey").addEventListener("submit", (event) => {
    event.preventDefault();
    const username = $("passkey-username").value.trim();
    markInvalid($("passkey-username"), !username);
    if (!username) {
      showError($("passkey-username-error"), "Enter your username, or use “Sign in with a passkey” above.");
      return;
    }
    signInWithPasskey(username, $("passkey-named"), $("passkey-username-error"), signedIn);
  });
  $("form-password").addEventListener("submit", (event) => signInWithPassword(event, signedIn));
}
