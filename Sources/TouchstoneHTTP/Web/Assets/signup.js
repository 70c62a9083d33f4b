// Sign up: create the account, then sign in with its password.

import { call } from "./api.js";
import { stopApproval } from "./approval.js";
import { CLIENT_ID } from "./config.js";
import * as endpoints from "./endpoints.js";
import { SERVER_MESSAGES, messageFor } from "./messages.js";
import { showSignIn } from "./signin.js";
import { $, hideBanner, markInvalid, setBusy, show, showBanner, showError, toast } from "./ui.js";

async function signUp(event, signedIn) {
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
    await call(endpoints.createAccount, { body: { username, password } });
    let session;
    try {
      session = await call(endpoints.passwordSession, { body: { clientId: CLIENT_ID, username, password } });
    } catch (error) {
      $("password-username").value = username;
      showSignIn("password");
      showBanner(`Your account was created, but signing in failed: ${messageFor(error)}`);
      return;
    }
    $("sign-up-password").value = "";
    signedIn(session, "password", username);
    toast("Welcome! Add a passkey so you can sign in without your password.");
  } catch (error) {
    if (error.code === "username_taken") markInvalid($("sign-up-username"), true);
    if (error.code === "weak_password") markInvalid($("sign-up-password"), true);
    showError(errorElement, messageFor(error));
  } finally {
    setBusy(button, false);
  }
}

/** The sign-up form and the links between sign-up and sign-in; the new account's session goes to `signedIn`. */
export function wireSignUp({ signedIn }) {
  $("go-sign-up").addEventListener("click", () => {
    hideBanner();
    stopApproval();
    show("view-sign-up");
  });
  $("go-sign-in").addEventListener("click", () => {
    hideBanner();
    showSignIn();
  });
  $("form-sign-up").addEventListener("submit", (event) => signUp(event, signedIn));
}
