// The tab's session, owned by this module alone: its tokens (in memory only: no cookies, no localStorage, no
// sessionStorage), the silent refresh, and the short privileged window a step-up opens.

import { ApiError, call } from "./api.js";
import * as endpoints from "./endpoints.js";
import { messageFor } from "./messages.js";

const REFRESH_MARGIN_MS = 60_000;

const state = {
  session: null, // the session object of the protocol, refreshed in place
  how: null, // "password" | "passkey" | "device"
  username: null, // what the user typed, or what the account says
  refreshTimer: null,
  refreshing: null, // the refresh in flight, so that two callers share it
  privileged: null, // { token, expiresAt } after a step-up
};

// What the page does when the session changes without the user asking: set once, by app.js.
const listeners = {
  refreshed: () => {},
  ended: () => {},
};

/** `refreshed()` after each silent refresh; `ended(reason)` when a refresh found the session over. */
export function onSessionChange({ refreshed, ended }) {
  listeners.refreshed = refreshed;
  listeners.ended = ended;
}

/** The session object of the protocol, or null when signed out. */
export function currentSession() {
  return state.session;
}

/** How this session was signed in: "password", "passkey" or "device". */
export function signInMethod() {
  return state.how;
}

export function username() {
  return state.username;
}

/** Names the user once the account says who it is (a usernameless passkey sign-in learns it so). */
export function setUsername(name) {
  state.username = name;
}

/** Keeps `session` as this tab's, and schedules its refresh. */
export function beginSession(session, how, name) {
  state.session = session;
  state.how = how;
  state.username = name || null;
  state.privileged = null;
  scheduleRefresh();
}

/** Forgets the session, without telling the server; the session it was, if any. */
export function forgetSession() {
  const session = state.session;
  clearTimeout(state.refreshTimer);
  state.session = null;
  state.how = null;
  state.username = null;
  state.privileged = null;
  state.refreshing = null;
  return session;
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

/** Rotates the tokens; one refresh at a time, shared by its callers. A refused refresh ends the session. */
function refreshSession() {
  if (!state.refreshing) {
    const current = state.session;
    state.refreshing = (async () => {
      try {
        const fresh = await call(endpoints.refresh, { body: { refreshToken: current.refreshToken } });
        if (state.session !== current) return; // signed out meanwhile
        state.session = fresh;
        scheduleRefresh();
        listeners.refreshed();
      } catch (error) {
        if (error instanceof ApiError && (error.code === "network" || error.status >= 500)) {
          // Try again soon; the access token may still be valid.
          clearTimeout(state.refreshTimer);
          state.refreshTimer = setTimeout(() => refreshSession().catch(() => {}), 15_000);
          throw error;
        }
        listeners.ended(messageFor(error));
        throw error;
      } finally {
        state.refreshing = null;
      }
    })();
  }
  return state.refreshing;
}

/** A call with the session's access token: one silent refresh and retry when the token was refused. */
export async function authed(endpoint, { params, body } = {}) {
  if (!state.session) throw new ApiError(401, "unauthorized", "signed out");
  try {
    return await call(endpoint, { params, body, token: state.session.accessToken });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || error.code !== "unauthorized") throw error;
    await refreshSession();
    return call(endpoint, { params, body, token: state.session.accessToken });
  }
}

/** Whether the session has two factors (aal2): only such a session can step up. */
export function strong() {
  return state.session && state.session.acr === "aal2";
}

/** Whether `sessionId` (an access token's `sid`) is this tab's session. */
export function isCurrentSession(sessionId) {
  if (!state.session) return false;
  try {
    const payload = state.session.accessToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(payload)).sid === sessionId;
  } catch {
    return false;
  }
}

/** The step-up's privileged token, while more than five seconds of its window are left. */
export function privilegedToken() {
  const privileged = state.privileged;
  if (privileged && privileged.expiresAt - Date.now() > 5000) return privileged.token;
  return null;
}

/** When the privileged window closes (ms since the epoch), or null without one. */
export function privilegeEndsAt() {
  return state.privileged ? state.privileged.expiresAt : null;
}

/** Keeps a step-up's answer: a privileged token for `expiresIn` seconds. */
export function grantPrivilege(granted) {
  state.privileged = { token: granted.accessToken, expiresAt: Date.now() + granted.expiresIn * 1000 };
}

export function dropPrivilege() {
  state.privileged = null;
}
