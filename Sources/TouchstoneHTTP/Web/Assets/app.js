// Touchstone web page: sign in with a passkey, a password or a phone approval; manage passkeys, devices, sessions and
// recovery codes, and see the account's security notices.
//
// The entry module: it starts and ends the session and wires the areas together. Each area is a module of its own
// (signin, approval, signup, provider, account, recovery, removal), calling the server through api.js with the
// endpoints of the server's own table (endpoints.js); the session's tokens are session.js's alone.

import { closeAccount, openAccount, renderAccount, wireAccount } from "./account.js";
import { call } from "./api.js";
import { wireApproval } from "./approval.js";
import * as endpoints from "./endpoints.js";
import { messageFor } from "./messages.js";
import { continueToSite, loadSignInRequest, paymentSignInRequest, signingInForSite, wireProvider } from "./provider.js";
import { hideRecoveryCodes, wireRecovery } from "./recovery.js";
import { closeRemoval, wireRemoval } from "./removal.js";
import { beginSession, forgetSession, onSessionChange } from "./session.js";
import { offerPasskeyAutofill, showSignIn, wireSignIn } from "./signin.js";
import { wireSignUp } from "./signup.js";
import { $, hideBanner, markInvalid, showBanner, showError, toast } from "./ui.js";
import { abortCeremony, webAuthnAvailable } from "./webauthn.js";

// A sign-in's session: to the site that asked for it, if one did, or to the account page.
function startSession(session, how, username) {
  if (signingInForSite()) {
    continueToSite(session);
    return;
  }
  beginSession(session, how, username);
  hideBanner();
  $("toast").hidden = true;
  openAccount();
}

// Forgets the session and empties what showed it; the session it was, if any.
function clearSession() {
  const session = forgetSession();
  abortCeremony();
  closeAccount();
  hideRecoveryCodes();
  closeRemoval();
  return session;
}

// The session ended without the user asking: say why, back to sign-in.
function endSession(reason) {
  clearSession();
  showSignIn();
  showBanner(reason);
}

async function signOut() {
  const session = clearSession();
  showSignIn();
  if (session) {
    try {
      await call(endpoints.logout, { token: session.accessToken });
      toast("You are signed out.");
    } catch (error) {
      // A token that had already expired needs no ending; anything else the user should know.
      if (error.status === 401) toast("You are signed out.");
      else showBanner(`You are signed out on this page, but the server could not be told: ${messageFor(error)}`);
    }
  }
}

function wire() {
  onSessionChange({ refreshed: renderAccount, ended: endSession });
  wireSignIn({ signedIn: startSession });
  wireApproval({ signedIn: startSession, showSignIn });
  wireSignUp({ signedIn: startSession });
  wireProvider();
  wireAccount();
  wireRecovery();
  wireRemoval({ signOut });
  $("sign-out").addEventListener("click", signOut);
  $("banner-close").addEventListener("click", hideBanner);
  for (const input of document.querySelectorAll("input")) {
    input.addEventListener("input", () => markInvalid(input, false));
  }
}

async function boot() {
  wire();
  const requestId = new URLSearchParams(window.location.search).get("sign-in");
  if (requestId) await loadSignInRequest(requestId);
  $("boot-note").hidden = true;
  if (paymentSignInRequest()) {
    // A payment at sign-in: only the phone grants it.
    showSignIn("device");
  } else if (!webAuthnAvailable()) {
    for (const id of ["passkey-any", "passkey-named", "add-passkey"]) $(id).disabled = true;
    showSignIn("password");
    showError($("passkey-username-error"), "This browser does not support passkeys. Use your password or your phone.");
  } else {
    showSignIn("passkey");
    offerPasskeyAutofill(startSession);
  }
  document.body.dataset.ready = "true";
}

boot();
