// Sign in by approving on a phone (number matching): start the request, show the number, poll until the phone
// answers or the request expires.

import { call } from "./api.js";
import { CLIENT_ID } from "./config.js";
import * as endpoints from "./endpoints.js";
import { messageFor } from "./messages.js";
import { paymentSignInRequest } from "./provider.js";
import { $, clock, hideBanner, markInvalid, setBusy, show, showError } from "./ui.js";

const POLL_INTERVAL_MS = 2000;

// The request on screen: { id, pollSecret, number, username, deadline, timer, failures, signedIn, ended }.
let approval = null;

async function startApproval(username, signedIn) {
  hideBanner();
  const errorElement = $("device-form-error");
  showError(errorElement, "");
  const button = $("device-submit");
  setBusy(button, true);
  try {
    const signInRequestId = paymentSignInRequest();
    const body = signInRequestId ? { username, clientId: CLIENT_ID, signInRequestId } : { username, clientId: CLIENT_ID };
    const started = await call(endpoints.startWebLogin, { body });
    stopApproval();
    const remaining = Date.parse(started.expiresAt) - Date.now();
    approval = {
      id: started.webLoginId,
      pollSecret: started.pollSecret,
      number: started.number,
      username,
      // The server's expiry, unless the two clocks disagree wildly.
      deadline: Date.now() + (remaining > 0 && remaining <= 180_000 ? remaining : 120_000),
      timer: null,
      failures: 0,
      signedIn,
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
  if (!approval) return;
  const left = approval.deadline - Date.now();
  $("approval-countdown").textContent =
    approval.failures > 0 ? "Reconnecting to the server…" : `Waiting for your phone · ${clock(left)} left`;
}

function scheduleApprovalPoll() {
  const polled = approval;
  polled.timer = setTimeout(() => pollApproval(polled), POLL_INTERVAL_MS);
}

async function pollApproval(polled) {
  if (approval !== polled) return;
  let answer;
  try {
    answer = await call(endpoints.pollWebLogin, {
      params: [polled.id],
      headers: { "X-Poll-Secret": polled.pollSecret },
    });
    polled.failures = 0;
  } catch (error) {
    if (approval !== polled) return;
    if (error.code === "network" || error.status >= 500 || error.status === 429) {
      polled.failures += 1;
      if (Date.now() < polled.deadline + 10_000) {
        renderCountdown();
        scheduleApprovalPoll();
        return;
      }
    }
    endApproval("bad", messageFor(error, { not_found: "The server no longer knows this sign-in request. Send a new one." }));
    return;
  }
  if (approval !== polled) return;
  switch (answer.status) {
    case "pending":
      if (Date.now() > polled.deadline + 10_000) {
        endApproval("neutral", "The request expired before it was approved on your phone.");
        return;
      }
      renderCountdown();
      scheduleApprovalPoll();
      return;
    case "approved":
      if (answer.session) {
        stopApproval();
        polled.signedIn(answer.session, "device", polled.username);
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
  if (approval) clearTimeout(approval.timer);
  approval = { ...approval, timer: null, ended: true };
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

/** Gives up the request on screen, if any: no more polling. */
export function stopApproval() {
  if (approval) clearTimeout(approval.timer);
  approval = null;
}

/**
 * The phone tab's form and the waiting view's buttons: a session the phone approves goes to `signedIn`; "use another
 * way" goes back with `showSignIn`.
 */
export function wireApproval({ signedIn, showSignIn }) {
  $("form-device").addEventListener("submit", (event) => {
    event.preventDefault();
    const username = $("device-username").value.trim();
    markInvalid($("device-username"), !username);
    if (!username) {
      showError($("device-form-error"), "Enter your username.");
      return;
    }
    startApproval(username, signedIn);
  });
  $("approval-cancel").addEventListener("click", () => showSignIn("device"));
  $("approval-retry").addEventListener("click", () => {
    const username = approval && approval.username;
    if (username) startApproval(username, signedIn);
    else showSignIn("device");
  });
}
